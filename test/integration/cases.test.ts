import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { handler as caseOpener } from '../../functions/queue/case-opener.js';
import { invoke } from '../../infra/local/invoke.js';
import { dataSubjects } from '../../shared/adapters/privacy-repository.js';
import { putDelivery } from '../../shared/adapters/tenant-repository.js';
import { erase } from '../../shared/privacy/service.js';
import { caseSystemChanges } from '../../shared/adapters/wiring/cases.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { inProcess, errorPaths } from '../support/api.js';
import { sqsEvent, usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { emailsOf } from '../support/mailbox.js';

/**
 * Cases end to end in process, against the emulators: an answer's message on the case queue (a private one, read
 * here), the case queue's consumer invoked under its own role with real SQS batches, the alert in the local SES
 * mailbox, and the cases API with user tokens.
 */
usePrivateQueue('surveyDispatch');
const caseQueue = usePrivateQueue('cases');
const eventQueue = usePrivateQueue('events');
const api = inProcess('public');
const chatbot = inProcess('chatbot');
const sesUrl = inject('sesUrl');
let tenant: TestTenant;
let manager: string;
let store2: number;
let store2Token: string;
let store2User: string;

interface Mail {
  destination: { to: string[] };
  subject: string;
  body: { html: string; text: string };
}
const mailsTo = async (address: string) => {
  const emails = await emailsOf<Mail>(sesUrl);
  return emails.filter((e) => e.destination.to.includes(address));
};

/** Runs every message the case queue holds through its consumer, `times` times (a redelivery after the first). */
async function consumeCases(times = 1): Promise<Record<string, unknown>[]> {
  const messages = await caseQueue.drain();
  for (let i = 0; i < times; i++) {
    const response = await invoke('caseOpener', caseOpener, sqsEvent(messages, { queue: 'CaseQueue', receiveCount: i + 1 }));
    expect(response.batchItemFailures).toEqual([]);
  }
  return messages;
}

const answer = (id: number, score: number, comment: string | null, method: 'POST' | 'PUT' = 'POST') =>
  chatbot({
    method,
    path: '/survey',
    key: tenant.chatbotKey,
    body: { transactionId: id, attemptId: 1, journey: 'loja', score, classes: [], ...(comment ? { comment } : {}) },
  });

const getCase = (id: number, token = tenant.userToken) =>
  api({ path: `/public/cases/${id}`, key: tenant.key, headers: { 'x-service-user-token': token } });
/** A change to a case; `*` (the ETag by default) makes it to whatever version is current. */
const patch = (id: number, body: unknown, token = tenant.userToken, etag: string | undefined = '*') =>
  api({
    method: 'PATCH',
    path: `/public/cases/${id}`,
    key: tenant.key,
    body,
    headers: { 'x-service-user-token': token, ...(etag ? { 'if-match': etag } : {}) },
  });

/** A sale in `store` answered with `score`, its case message consumed: answers the transaction's id. */
async function answered(score: number, comment: string | null, store = 1): Promise<number> {
  const id = await registerSale(api, tenant.key, { store_id: store, phone: '11987654321' });
  expect((await answer(id, score, comment)).status).toBe(201);
  await consumeCases();
  return id;
}

beforeAll(async () => {
  tenant = await newTenant();
  manager = `gerente-${randomUUID().slice(0, 8)}@loja.test`;
  await tenantService.createUser(tenant.tenantId, { name: manager, scope: { stores: [1], groups: [1] } });
  await putDelivery(tenant.tenantId, {
    quietHours: null,
    email: { from: 'pesquisa@loja.test' },
    webhooks: [{ url: 'http://127.0.0.1:9/case-events' }],
  });
  const created = await api({ method: 'POST', path: '/store', key: tenant.key, body: { trade_name: 'Loja Dois' } });
  store2 = created.body.id;
  store2User = `loja2-${randomUUID().slice(0, 6)}`;
  store2Token = (await tenantService.createUser(tenant.tenantId, { name: store2User, scope: { stores: [store2], groups: [] } })).token;
});

describe('opening a case', () => {
  it("opens one case for a detractor, alerts the store's manager once with a link to it, and lists it as open in store 1", async () => {
    const id = await registerSale(api, tenant.key, { phone: '11987654321' });
    expect((await answer(id, 3, 'Demorou muito no caixa')).status).toBe(201);
    const messages = await consumeCases(2);
    // The message names the answer only: no contact, name or comment.
    expect(messages).toEqual([{ tenantId: tenant.tenantId, transactionId: id, version: 1 }]);

    const mails = await mailsTo(manager);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body.text).toContain(`/app/cases/${id}`);
    expect(mails[0]!.body.text).toContain('Demorou muito no caixa');
    expect(mails[0]!.subject).toContain('3');

    const list = await api({
      path: '/public/cases',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      query: { store: 1, status: 'open' },
    });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data.filter((c: { id: number }) => c.id === id)).toHaveLength(1);
    expect(list.body.data.find((c: { id: number }) => c.id === id)).toMatchObject({
      status: 'open',
      store: 1,
      score: 3,
      comment: 'Demorou muito no caixa',
      // The store's only person who signs in owns it; the API users who see it never do.
      owner: manager,
      overdue: false,
    });

    // case.opened is published for each delivery of the message, under one event id the receiver deduplicates on.
    const opened = (await eventQueue.drain()).filter((d) => (d.event as { type: string }).type === 'case.opened');
    expect(opened.length).toBeGreaterThan(0);
    expect(new Set(opened.map((d) => (d.event as { id: string }).id)).size).toBe(1);
    // It names the case's owner, as the API does.
    expect((opened[0]!.event as { data: { case_id: number; owner: string | null } }).data).toMatchObject({ case_id: id, owner: manager });
    expect(JSON.stringify(opened)).not.toContain('11987654321');
  });

  it('shows a correction (PUT /survey) on the same case, and sends no second alert', async () => {
    const before = (await mailsTo(manager)).length;
    const id = await answered(2, 'Atendente grosseiro');
    expect((await mailsTo(manager)).length).toBe(before + 1);
    expect((await answer(id, 0, 'Pior ainda', 'PUT')).status).toBe(200);
    const [message] = await consumeCases(2);
    expect(message).toEqual({ tenantId: tenant.tenantId, transactionId: id, version: 2 });
    const read = await getCase(id);
    expect(read.body).toMatchObject({ id, score: 0, comment: 'Pior ainda' });
    expect(read.body.history.map((h: { action: string }) => h.action)).toEqual(['opened', 'rescored']);
    expect((await mailsTo(manager)).length).toBe(before + 1);
  });

  it('opens nothing for a promoter', async () => {
    const id = await answered(10, 'Ótimo');
    expect((await getCase(id)).status).toBe(404);
  });

  it("answers the caller's code of its transaction as transaction_id, in the case, the list and case.opened", async () => {
    await eventQueue.drain();
    const code = `PDV-${randomUUID().slice(0, 8)}`;
    const id = await registerSale(api, tenant.key, { phone: '11987654321', transaction_id: code });
    expect((await answer(id, 2, null)).status).toBe(201);
    await consumeCases();
    const read = await getCase(id);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ id, transaction_id: code });
    const list = await api({
      path: '/public/cases',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      query: { limit: 100 },
    });
    expect(list.body.data.find((c: { id: number }) => c.id === id)).toMatchObject({ id, transaction_id: code });
    const opened = (await eventQueue.drain()).map((d) => d.event as { type: string; data: Record<string, unknown> });
    expect(opened.find((e) => e.type === 'case.opened' && e.data.case_id === id)?.data).toMatchObject({ transaction_id: code });
    // A sale sent without a code has none: null, never the case's own id.
    const uncoded = await answered(2, null);
    expect((await getCase(uncoded)).body).toMatchObject({ id: uncoded, transaction_id: null });
  });
});

describe('the cases API', () => {
  it('moves a case to in_progress (first contact noted) and then resolved with a root cause and a note', async () => {
    const id = await answered(4, null);
    const started = await patch(id, { status: 'in_progress', note: 'Liguei, vou retornar' });
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ status: 'in_progress', notes: [{ author: 'full', text: 'Liguei, vou retornar' }] });
    expect(started.body.first_contact_at).toEqual(expect.any(String));
    const resolved = await patch(id, { status: 'resolved', root_cause: 'Atendimento', note: 'Troca feita' });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body).toMatchObject({ status: 'resolved', root_cause: 'Atendimento' });
    expect(resolved.body.closed_at).toEqual(expect.any(String));
    expect((await getCase(id)).body.status).toBe('resolved');
    const events = (await eventQueue.drain()).map((d) => d.event as { type: string; data: { case_id: number } });
    expect(events.filter((e) => e.type === 'case.resolved' && e.data.case_id === id)).toHaveLength(1);
  });

  it('names every wrong field of a PATCH and changes nothing', async () => {
    const id = await answered(1, null);
    const cases = [
      [{ status: 'archived' }, ['status']],
      [{ status: 'resolved' }, ['status']],
      [{ colour: 'red' }, ['colour']],
      [{}, ['']],
      [{ owner: 'nobody-here' }, ['owner']],
      [{ root_cause: 'Astrologia' }, ['root_cause']],
      [{ note: '   ' }, ['note']],
      [{ note: 'x'.repeat(2001) }, ['note']],
    ] as const;
    for (const [body, paths] of cases) {
      const res = await patch(id, body);
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(422);
      expect(errorPaths(res)).toEqual(paths);
    }
    await patch(id, { status: 'in_progress' });
    const res = await patch(id, { status: 'resolved' });
    expect(res.status).toBe(422);
    expect(errorPaths(res).sort()).toEqual(['note', 'root_cause']);
    const read = await getCase(id);
    expect(read.body).toMatchObject({ status: 'in_progress', notes: [], root_cause: null, version: 2 });
  });

  it('reassigns a case only to a person whose scope holds its store', async () => {
    const id = await answered(5, null);
    expect(errorPaths(await patch(id, { owner: store2User }))).toEqual(['owner']);
    const res = await patch(id, { owner: null });
    expect(res.status, res.text).toBe(200);
    expect((await patch(id, { owner: manager })).body.owner).toBe(manager);
  });

  it('makes one change per version read: of four identical resolves sent at once, one is saved and three answer 412', async () => {
    const id = await answered(6, null);
    const started = await patch(id, { status: 'in_progress' });
    const resolve = { status: 'resolved', root_cause: 'Atendimento', note: 'Troca feita' };

    const results = await Promise.all(Array.from({ length: 4 }, () => patch(id, resolve, tenant.userToken, started.headers.etag)));

    expect(started.headers.etag).toBe(`"${started.body.version}"`);
    expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412, 412]);
    const read = await getCase(id);
    expect(read.body.notes.map((n: { text: string }) => n.text)).toEqual(['Troca feita']);
    expect(read.headers.etag).toBe(`"${read.body.version}"`);
    expect(results.find((r) => r.status === 200)!.headers.etag).toBe(read.headers.etag);
  });

  it('takes a change only with the strong ETag of the version read: none 428, weak or stale 412, changing nothing', async () => {
    const id = await answered(6, null);
    const read = await getCase(id);
    const none = await patch(id, { note: 'sem versão' }, tenant.userToken, '');
    const weak = await patch(id, { note: 'versão fraca' }, tenant.userToken, `W/${read.headers.etag}`);
    const stale = await patch(id, { note: 'versão velha' }, tenant.userToken, `"${read.body.version + 1}"`);

    expect([none.status, weak.status, stale.status]).toEqual([428, 412, 412]);
    expect(weak.body.detail).toContain('weak ETag');
    expect((await getCase(id)).body).toMatchObject({ notes: [], version: read.body.version });
  });

  it('answers 404 to a user token scoped to another store, for the case, its list filter, its change and its contact', async () => {
    const id = await answered(0, 'Nunca mais');
    expect((await getCase(id, store2Token)).status).toBe(404);
    expect((await patch(id, { note: 'x' }, store2Token)).status).toBe(404);
    const contact = await api({
      method: 'POST',
      path: `/public/cases/${id}/contact`,
      key: tenant.key,
      headers: { 'x-service-user-token': store2Token },
    });
    expect(contact.status).toBe(404);
    const list = await api({
      path: '/public/cases',
      key: tenant.key,
      headers: { 'x-service-user-token': store2Token },
      query: { store: 1 },
    });
    expect(list.status).toBe(404);
    const own = await api({ path: '/public/cases', key: tenant.key, headers: { 'x-service-user-token': store2Token } });
    expect(own.body.data.map((c: { id: number }) => c.id)).not.toContain(id);
    expect((await getCase(id, tenant.limitedToken)).status).toBe(200);
  });

  it('lists each case with its short number, and finds a case by ?number= (never by its id) within the scope alone', async () => {
    const id = await answered(1, null);
    const number = (await getCase(id)).body.number as number;
    expect(number).toBeGreaterThan(0);
    const list = (query: Record<string, string | number>, token = tenant.userToken) =>
      api({ path: '/public/cases', key: tenant.key, headers: { 'x-service-user-token': token }, query });
    const all = await list({ limit: 100 });
    expect(all.body.data.find((c: { id: number }) => c.id === id)).toMatchObject({ id, number });
    const found = await list({ number });
    expect(found.status, found.text).toBe(200);
    expect(found.body).toMatchObject({ data: [{ id, number, store: 1 }], next_cursor: null });
    // A user whose scope does not hold the store finds nothing, as for a number no case has.
    expect((await list({ number }, store2Token)).body.data).toEqual([]);
    expect((await list({ number: 999_999 })).body.data).toEqual([]);
    // A case's id is not its number: refused, named.
    const byId = await list({ number: id });
    expect(byId.status).toBe(422);
    expect(byId.body.errors.map((e: { path: string }) => e.path)).toEqual(['number']);
    const mixed = await list({ number, store: 1 });
    expect(mixed.status, mixed.text).toBe(422);
    expect(mixed.body.errors).toEqual([{ path: 'store', message: expect.stringContaining('number') }]);
  });

  it("reveals the customer's contact to a manager of the store, and writes the read to the access log", async () => {
    const id = await answered(3, null);
    const customer = (await getCase(id)).body.customer.id as number;
    const contact = await api({
      method: 'POST',
      path: `/public/cases/${id}/contact`,
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.limitedToken },
    });
    expect(contact.status, contact.text).toBe(200);
    expect(contact.body.customer).toMatchObject({ id: customer, phone: '+5511987654321', email: expect.stringContaining('@example.com') });
    const log = await api({
      path: '/public/privacy/access',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      query: { customer },
    });
    expect(log.body.data.map((e: { operation: string; user: string }) => [e.operation, e.user])).toContainEqual([
      'revealCaseContact',
      'limited',
    ]);
  });
});

describe('the seams of the deadline and recovery parts', () => {
  it('marks a case overdue once (the second check answers nothing), lists it first, and publishes case.overdue once', async () => {
    const later = await answered(3, null);
    const earlier = await answered(3, null);
    await eventQueue.drain();
    const at = new Date();
    expect(await caseSystemChanges.markOverdue(tenant.tenantId, later, at)).toMatchObject({ id: later, overdue: true });
    expect(await caseSystemChanges.markOverdue(tenant.tenantId, later, at)).toBeUndefined();
    const list = await api({
      path: '/public/cases',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      query: { store: 1, status: 'open' },
    });
    const ids = list.body.data.map((c: { id: number }) => c.id);
    expect(ids[0]).toBe(later);
    expect(ids).toContain(earlier);
    const overdue = await api({
      path: '/public/cases',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      query: { store: 1, status: 'open', overdue: 'true' },
    });
    expect(overdue.body.data.map((c: { id: number }) => c.id)).toEqual([later]);
    const events = (await eventQueue.drain()).map((d) => d.event as { type: string; data: { case_id: number } });
    expect(events.filter((e) => e.type === 'case.overdue')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ case_id: later }) }),
    ]);
  });

  it("records the recovery survey's outcome on the case and publishes case.recovered", async () => {
    const id = await answered(2, null);
    await eventQueue.drain();
    const at = new Date().toISOString();
    expect(await caseSystemChanges.recordRecovery(tenant.tenantId, id, { outcome: 'recovered', at, score: 9 })).toMatchObject({
      recovery: { outcome: 'recovered', score: 9 },
    });
    expect((await getCase(id)).body.recovery).toEqual({ outcome: 'recovered', at, score: 9 });
    const events = (await eventQueue.drain()).map((d) => d.event as { type: string; data: { recovery: string } });
    expect(events.filter((e) => e.type === 'case.recovered').map((e) => e.data.recovery)).toEqual(['recovered']);
  });
});

describe('erasure', () => {
  it("removes the customer's name, comment and the managers' notes from their cases, which take no note afterwards", async () => {
    const clientId = `E-${randomUUID().slice(0, 8)}`;
    const id = await registerSale(api, tenant.key, { customer_integration: clientId, name: 'Titular Apagado', phone: '11987650000' });
    expect((await answer(id, 1, 'Meu CPF é 529.982.247-25')).status).toBe(201);
    await consumeCases();
    expect((await patch(id, { note: 'Cliente pediu retorno à tarde' })).status).toBe(200);
    expect((await getCase(id)).body.customer.name).toBe('Titular Apagado');

    const request = await api({
      method: 'POST',
      path: '/public/privacy/requests',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      body: { type: 'erase', client_id: clientId },
    });
    expect(request.status, request.text).toBe(202);
    const customerId = (await getCase(id)).body.customer.id as number;
    await erase(dataSubjects, tenant.tenantId, { customerId, mark: { requestId: request.body.id, at: new Date().toISOString() } });

    const read = await getCase(id);
    expect(read.body).toMatchObject({ customer: { id: customerId, name: null }, comment: null, score: 1 });
    expect(read.body.notes).toEqual([]);
    expect(read.text).not.toContain('retorno à tarde');
    expect(read.text).not.toContain('529.982.247-25');
    expect(read.text).not.toContain('Titular');
    const contact = await api({
      method: 'POST',
      path: `/public/cases/${id}/contact`,
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
    });
    expect(contact.body.customer).toEqual({ id: customerId, name: null, phone: null, email: null });
    const noted = await patch(id, { note: 'Liguei de novo para Titular Apagado' });
    expect(noted.status).toBe(422);
    expect(noted.body.errors).toEqual([{ path: 'note', message: 'the customer of this case was erased: it takes no notes' }]);
    // Erasing again writes nothing more to the case.
    const version = read.body.version;
    await erase(dataSubjects, tenant.tenantId, { customerId, mark: { requestId: request.body.id, at: new Date().toISOString() } });
    expect((await getCase(id)).body.version).toBe(version);
  });
});
