import { beforeAll, describe, expect, inject, it } from 'vitest';
import { handler as caseOpener } from '../../functions/queue/case-opener.js';
import { handler as dispatcher } from '../../functions/queue/survey-dispatcher.js';
import { invoke } from '../../infra/local/invoke.js';
import { caseStore } from '../../shared/adapters/case-repository.js';
import { dataSubjects } from '../../shared/adapters/privacy-repository.js';
import { putBrand } from '../../shared/adapters/brand-repository.js';
import { putDelivery } from '../../shared/adapters/tenant-repository.js';
import { erase } from '../../shared/privacy/service.js';
import { findById } from '../../shared/adapters/transaction-repository.js';
import { recoveryRequester } from '../../shared/adapters/wiring/recovery.js';
import type { RecoveryCase } from '../../shared/recovery/ports.js';
import { inProcess } from '../support/api.js';
import { sqsEvent, usePrivateQueue } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { outboxOf, emailsTo } from '../support/mailbox.js';

/**
 * The recovery survey against the emulators: a resolved case's customer gets "Did we solve it?" through the first
 * survey's delivery (the SES emulator's mailbox, the outbox for WhatsApp), answers it on the survey page once, and the
 * answer shows in the store's recovery rate in GET /public/results. The case is what the `cases` service hands its
 * `recovery` port; the dispatcher runs under its own role (the local IAM check).
 */
const dispatch = usePrivateQueue('surveyDispatch');
const caseQueue = usePrivateQueue('cases');
const api = inProcess('public');
const [sesUrl, outboxUrl] = [inject('sesUrl'), inject('outboxUrl')];
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
let tenant: TestTenant;
let unique = 0;

beforeAll(async () => {
  tenant = await newTenant();
  await putBrand(tenant.tenantId, { name: 'Mercado Central' });
  await putDelivery(tenant.tenantId, {
    quietHours: null,
    email: { from: 'pesquisa@loja.example', name: 'Loja Exemplo' },
    whatsapp: { phoneNumberId: 'pn-test', template: 'pesquisa_satisfacao', language: 'pt_BR' },
  });
});

interface Mail {
  destination: { to: string[] };
  subject: string;
  body: { html: string; text: string };
}
const mailTo = (address: string) => emailsTo<Mail>(sesUrl, address);
const outboxTo = async (to: string) =>
  (await outboxOf<{ to: string; channel: string; text: string; link: string | null }>(outboxUrl)).filter((m) => m.to === to);
const newPhone = () => `+55119${String(Date.now() % 10_000_000).padStart(7, '0')}${unique++ % 10}`.slice(0, 14);

/** The dispatcher, invoked with the batch the event source would hand it; answers the records that failed. */
async function deliverQueued(): Promise<number> {
  const messages = await dispatch.drain();
  if (!messages.length) return 0;
  const response = await invoke('surveyDispatcher', dispatcher, sqsEvent(messages, { queue: 'SurveyDispatchQueue' }));
  expect(response.batchItemFailures).toEqual([]);
  return messages.length;
}

/** A sale whose first survey went out (and was answered low, as a case's is), and the case the `cases` service would resolve. */
async function resolvedCase(journey: string, customer: Record<string, unknown>, store = 1): Promise<RecoveryCase> {
  const res = await api({
    method: 'POST',
    path: '/public/transaction',
    key: tenant.key,
    body: { store_id: store, employee_id: 1, journey, customer_integration: `R-${Date.now()}-${unique++}`, ...customer },
  });
  expect(res.status, res.text).toBe(201);
  expect(await deliverQueued()).toBe(1);
  const tx = res.body as { id: number; journey_id?: number };
  const journeyId = journey === 'loja' ? 1 : 2;
  return { id: tx.id, journeyId, storeId: store, employeeId: 1, openedAt: new Date().toISOString() };
}

const today = () => new Date().toISOString().slice(0, 10);
const storeRow = async (journey: string, store: number) => {
  const res = await api({
    path: '/public/results',
    key: tenant.key,
    headers: { 'x-service-user-token': tenant.userToken },
    query: { journey, from: today(), to: today(), group_by: 'store' },
  });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as { key: string; cases: Record<string, unknown> }[]).find((row) => row.key === String(store));
};

describe('the recovery survey', () => {
  it('e-mail: a resolved case asks once "did we solve it?"; "yes" is recorded once and shows in the store recovery rate', async () => {
    const email = `recovery-${Date.now()}@example.com`;
    const c = await resolvedCase('ecommerce', { name: 'Maria Silva', email });
    expect(await mailTo(email)).toHaveLength(1);

    expect(await recoveryRequester.request(tenant.tenantId, c)).toBe('scheduled');
    expect(await deliverQueued()).toBe(1);
    const mails = await mailTo(email);
    expect(mails).toHaveLength(2);
    const mail = mails.find((m) => m.subject === 'Mercado Central: resolvemos?')!;
    expect(mail.body.text).toContain('Mercado Central resolveu o que você nos contou?');
    const link = /(http\S+\/s\/[\w-]{44})/.exec(mail.body.text)![1]!;
    expect(mail.body.html).toContain(`${link}?solved=yes"`);
    expect(mail.body.html).toContain(`${link}?solved=no"`);

    // A repeated request (a redelivered resolution) sends nothing more.
    expect(await recoveryRequester.request(tenant.tenantId, c)).toBe('duplicate');
    await deliverQueued();
    expect(await mailTo(email)).toHaveLength(2);

    const path = new URL(link).pathname;
    const page = await api({ path, query: { solved: 'yes' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Mercado Central resolveu o que você nos contou?');
    expect(page.text).toContain('value="yes" checked');

    const bad = await api({ method: 'POST', path, headers: FORM, body: 'score=12' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Diga se resolvemos: sim ou não.');
    expect(bad.text).toContain('A nota deve ser de 1 a 5.');

    const answered = await api({ method: 'POST', path, headers: FORM, body: 'solved=yes&score=5' });
    expect(answered.status, answered.text).toBe(303);
    expect((await api({ path })).text).toContain('Que bom que resolvemos!');
    const again = await api({ method: 'POST', path, headers: FORM, body: 'solved=no' });
    expect(again.status).toBe(409);
    expect(again.text).toContain('Pesquisa já respondida');

    expect((await storeRow('ecommerce', 1))?.cases).toMatchObject({ recovery_answers: 1, recovery_rate: 1 });
  });

  it('whatsapp: the recovery goes out on the channel that reached the customer, with its own link', async () => {
    const phone = newPhone();
    const c = await resolvedCase('loja', { name: 'João Souza', phone }, 1);
    const [first] = await outboxTo(phone);
    expect(await recoveryRequester.request(tenant.tenantId, c)).toBe('scheduled');
    expect(await deliverQueued()).toBe(1);
    const sent = await outboxTo(phone);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({ channel: 'whatsapp' });
    expect(sent[1]!.link).toMatch(/\/s\/[\w-]{44}$/);
    expect(sent[1]!.link).not.toBe(first!.link);

    const path = new URL(sent[1]!.link!).pathname;
    expect((await api({ method: 'POST', path, headers: FORM, body: 'solved=no' })).status).toBe(303);
    // The first survey's link still opens the first survey, unanswered.
    expect((await api({ path: new URL(first!.link!).pathname })).text).toContain('recomendar');
    expect((await storeRow('loja', 1))?.cases).toMatchObject({ recovery_answers: 1, recovery_rate: 0 });
  });

  it('a customer who opted out gets none', async () => {
    const email = `optout-${Date.now()}@example.com`;
    const c = await resolvedCase('ecommerce', { name: 'Ana', email });
    const [first] = await mailTo(email);
    const link = /(http\S+\/s\/[\w-]{44})/.exec(first!.body.text)![1]!;
    expect((await api({ method: 'POST', path: `${new URL(link).pathname}/unsubscribe` })).status).toBe(200);

    expect(await recoveryRequester.request(tenant.tenantId, c)).toBe('not_sent');
    expect(await deliverQueued()).toBe(0);
    expect(await mailTo(email)).toHaveLength(1);
  });
});

describe('the recovery survey, never to whom it must not reach', () => {
  const eraseCustomer = async (transactionId: number) => {
    const { body } = await api({ path: `/public/transaction/${transactionId}`, key: tenant.key });
    await erase(dataSubjects, tenant.tenantId, {
      customerId: body.customer_id as number,
      mark: {
        requestId: `pr_${transactionId}`,
        at: new Date().toISOString(),
      },
    });
  };

  it('an erased customer gets none: neither when erased before the case is resolved, nor between the request and its send', async () => {
    const before = `erased-before-${Date.now()}@example.com`;
    const c1 = await resolvedCase('ecommerce', { name: 'Bia', email: before });
    await eraseCustomer(c1.id);
    expect(await recoveryRequester.request(tenant.tenantId, c1)).toBe('not_sent');
    expect(await deliverQueued()).toBe(0);

    const between = `erased-between-${Date.now()}@example.com`;
    const c2 = await resolvedCase('ecommerce', { name: 'Caio', email: between });
    expect(await recoveryRequester.request(tenant.tenantId, c2)).toBe('scheduled');
    await eraseCustomer(c2.id);
    expect(await deliverQueued()).toBe(1);
    expect(await mailTo(before)).toHaveLength(1);
    expect(await mailTo(between)).toHaveLength(1);
  });

  it("waits out the tenant's quiet hours on WhatsApp, as the first survey does", async () => {
    const quiet = await newTenant();
    const hhmm = (ms: number) => new Date(Date.now() + ms).toISOString().slice(11, 16);
    await putDelivery(quiet.tenantId, {
      quietHours: { timeZone: 'UTC', from: hhmm(-3_600_000), to: hhmm(3_600_000) },
      whatsapp: { phoneNumberId: 'pn-test', template: 'pesquisa_satisfacao', language: 'pt_BR' },
    });
    const phone = newPhone();
    const res = await api({
      method: 'POST',
      path: '/public/transaction',
      key: quiet.key,
      body: { store_id: 1, employee_id: 1, journey: 'loja', customer_integration: `Q-${Date.now()}`, phone, name: 'Duda' },
    });
    expect(res.status, res.text).toBe(201);
    await dispatch.drain();
    const id = res.body.id as number;
    const c = { id, journeyId: 1, storeId: 1, employeeId: 1, openedAt: new Date().toISOString() };
    expect(await recoveryRequester.request(quiet.tenantId, c)).toBe('scheduled');
    expect(await deliverQueued()).toBe(1);
    expect(await outboxTo(phone)).toHaveLength(0);
    expect((await findById(quiet.tenantId, id))?.recovery).toMatchObject({ status: 'scheduled', channel: 'whatsapp' });
  });
});

describe('the loop, through the local stack', () => {
  it('a detractor opens a case; the manager contacts and resolves it over PATCH; the recovery "yes" marks it recovered and shows in GET /public/results', async () => {
    // Prepare: a store of its own, so that its figures are this test's only.
    const store = await api({
      method: 'POST',
      path: '/public/store',
      key: tenant.key,
      body: { trade_name: 'Loja Loop', company_name: 'Loop Ltda', store_id: `LOOP-${Date.now()}` },
    });
    expect(store.status, store.text).toBe(201);
    const storeId = store.body.id as number;
    const phone = newPhone();
    const { id } = await resolvedCase('loja', { name: 'Rita Lima', phone }, storeId);
    const [first] = await outboxTo(phone);
    expect((await api({ method: 'POST', path: new URL(first!.link!).pathname, headers: FORM, body: 'score=3' })).status).toBe(303);
    const opened = await caseQueue.drain();
    expect(opened).toHaveLength(1);
    expect((await invoke('caseOpener', caseOpener, sqsEvent(opened, { queue: 'CaseQueue' }))).batchItemFailures).toEqual([]);
    const patch = (body: unknown) =>
      api({
        method: 'PATCH',
        path: `/public/cases/${id}`,
        key: tenant.key,
        headers: { 'x-service-user-token': tenant.userToken, 'if-match': '*' },
        body,
      });

    // Act: contacted, resolved (updateCase queues the recovery under its own role), answered "yes" on the page.
    expect((await patch({ status: 'in_progress' })).status).toBe(200);
    const resolved = await patch({ status: 'resolved', root_cause: 'Atendimento', note: 'Trocamos o produto.' });
    expect(resolved.status, resolved.text).toBe(200);
    expect(await deliverQueued()).toBe(1);
    const [, recoveryMessage, ...more] = await outboxTo(phone);
    expect(more).toHaveLength(0);
    expect(recoveryMessage).toMatchObject({ channel: 'whatsapp' });
    const path = new URL(recoveryMessage!.link!).pathname;
    expect((await api({ method: 'POST', path, headers: FORM, body: 'solved=yes&score=9' })).status).toBe(303);
    expect((await api({ method: 'POST', path, headers: FORM, body: 'solved=no' })).status).toBe(409);

    // Assess: the case is recovered (once), and the store's row counts it.
    const shown = await api({ path: `/public/cases/${id}`, key: tenant.key, headers: { 'x-service-user-token': tenant.userToken } });
    expect(shown.body).toMatchObject({ status: 'resolved', recovery: { outcome: 'recovered', score: 9 } });
    expect(await caseStore.find(tenant.tenantId, id)).toMatchObject({ recovery: { outcome: 'recovered', score: 9 } });
    const recoveries = (await caseStore.find(tenant.tenantId, id))!.history.filter((h) => h.action === 'recovery');
    expect(recoveries).toHaveLength(1);
    const row = (await storeRow('loja', storeId))?.cases;
    expect(row).toEqual({
      opened: 1,
      first_contact_median_minutes: expect.any(Number),
      first_contact_median_range: { low: 0, high: 15 },
      resolved: 1,
      resolved_within_deadline: 1,
      deadline_decided: 1,
      resolved_in_time: 1,
      on_time_rate: 1,
      recovery_answers: 1,
      recovery_rate: 1,
    });
    expect(row?.first_contact_median_minutes).toBeLessThanOrEqual(15);
  });
});
