import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { handler as caseOpenerHandler } from '../../functions/queue/case-opener.js';
import { invoke } from '../../infra/local/invoke.js';
import { dueTimers } from '../../shared/adapters/due-timers.js';
import { putDelivery, putSettings } from '../../shared/adapters/tenant-repository.js';
import { caseOpener } from '../../shared/adapters/wiring/cases.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { sendTimers } from '../../shared/adapters/wiring/timers.js';
import { caseRuleOf } from '../../shared/cases/rules.js';
import { minuteOf, releaseDue, type DueStore, type Timer } from '../../shared/timers/timers.js';
import { inProcess } from '../support/api.js';
import { sqsEvent, usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';
import { outboxOf, emailsOf } from '../support/mailbox.js';

/**
 * The case alert on WhatsApp, against the emulators and the local outbox: the journey's rule says `whatsapp`, the
 * tenant has an alert template, one of the store's two managers has a phone. Quiet hours 21:00-08:00 in São Paulo; the
 * opener is given the time (a Monday of 2031), and a held alert comes back through the real timers of the table.
 */
usePrivateQueue('surveyDispatch');
usePrivateQueue('events');
usePrivateQueue('caseDeadlines');
const caseQueue = usePrivateQueue('cases');
const api = inProcess('public');
const chatbot = inProcess('chatbot');
const [sesUrl, outboxUrl] = [inject('sesUrl'), inject('outboxUrl')];
let tenant: TestTenant;
let withPhone: string;
let withoutPhone: string;
const phone = `+55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

const minutes = (from: Date, n: number) => new Date(from.getTime() + n * 60_000);
/** Monday 6 January 2031, 09:00 in São Paulo: outside the quiet hours. */
const monday = new Date('2031-01-06T12:00:00Z');
/** The same Monday, 22:00 in São Paulo: inside them, until Tuesday 08:00 (11:00 UTC). */
const mondayNight = new Date('2031-01-07T01:00:00Z');
const quietEnd = new Date('2031-01-07T11:00:00Z');

interface OutboxMessage {
  channel: string;
  to: string;
  text: string;
  template?: { name: string; language: string };
}
const whatsAppsOf = async (id: number) =>
  (await outboxOf<OutboxMessage>(outboxUrl)).filter((m) => m.channel === 'whatsapp' && m.text.includes(`/app/cases/${id}`));
interface Mail {
  destination: { to: string[] };
  body: { text: string };
}
const alertMailsOf = async (id: number) => (await emailsOf<Mail>(sesUrl)).filter((m) => m.body.text.includes(`/app/cases/${id}`));

/** A detractor's answer in store 1, on the case queue: answers the transaction's id. */
async function answer(): Promise<number> {
  const id = await registerSale(api, tenant.key, { store_id: 1 });
  const res = await chatbot({
    method: 'POST',
    path: '/survey',
    key: tenant.chatbotKey,
    body: { transactionId: id, attemptId: 1, journey: 'loja', score: 2, classes: [], comment: 'Ninguém me atendeu' },
  });
  expect(res.status, res.text).toBe(201);
  await caseQueue.drain();
  return id;
}

/** The table's timers with a checkpoint of the test's own (the table's belongs to the local stack's release). */
function released(from: Date): DueStore<Timer> {
  let checkpoint: string | undefined = minuteOf(minutes(from, -1));
  return { ...dueTimers, checkpoint: async () => checkpoint, saveCheckpoint: async (m) => void (checkpoint = m) };
}

/** A tenant whose journey `loja` asks for the WhatsApp alert (or not), a manager with a phone and one without. */
async function setUp(whatsapp: boolean): Promise<TestTenant> {
  const created = await newTenant();
  await putSettings(created.tenantId, {
    ...DEMO_SETTINGS,
    journeys: DEMO_SETTINGS.journeys.map((j) => (j.slug === 'loja' ? { ...j, cases: { ...caseRuleOf(j), whatsapp } } : j)),
  });
  await tenantService.createUser(created.tenantId, { name: withPhone, scope: { stores: [1], groups: [] }, phone });
  await tenantService.createUser(created.tenantId, { name: withoutPhone, scope: { stores: [1], groups: [] } });
  await putDelivery(created.tenantId, {
    quietHours: { timeZone: 'America/Sao_Paulo', from: '21:00', to: '08:00' },
    email: { from: 'pesquisa@loja.test' },
    whatsapp: {
      phoneNumberId: 'phone-number-id-test',
      template: 'pesquisa_satisfacao',
      language: 'pt_BR',
      caseAlert: { template: 'alerta_caso', language: 'pt_BR' },
    },
  });
  return created;
}

beforeAll(async () => {
  withPhone = `gerente-${randomUUID().slice(0, 8)}@loja.test`;
  withoutPhone = `subgerente-${randomUUID().slice(0, 8)}@loja.test`;
  tenant = await setUp(true);
});

describe('the case alert on WhatsApp', () => {
  it('goes to the manager with a phone outside quiet hours, once however often the message is delivered; the other gets the e-mail only', async () => {
    const id = await answer();
    // The same message twice at once, then once more through the consumer (as SQS redelivers it).
    const outcomes = await Promise.all([
      caseOpener.openFromAnswer(tenant.tenantId, { transactionId: id, version: 1, now: monday }),
      caseOpener.openFromAnswer(tenant.tenantId, { transactionId: id, version: 1, now: monday }),
    ]);
    expect(outcomes.sort()).toEqual(['opened', 'unchanged']);
    await caseOpener.openFromAnswer(tenant.tenantId, { transactionId: id, version: 1, now: minutes(monday, 1) });

    const sent = await whatsAppsOf(id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: phone, template: { name: 'alerta_caso', language: 'pt_BR' } });
    // The tenant's template, its body the score, the store and the case's link.
    expect(sent[0]!.text).toBe(`2 | ${DEMO_SETTINGS.firstStore!.store} | ${process.env.SURVEY_BASE_URL}/app/cases/${id}`);

    const mails = await alertMailsOf(id);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.destination.to.sort()).toEqual([withPhone, withoutPhone].sort());
  });

  it('is held inside quiet hours and sent once when they end, through the timers', async () => {
    const id = await answer();
    expect(await caseOpener.openFromAnswer(tenant.tenantId, { transactionId: id, version: 1, now: mondayNight })).toBe('opened');
    // The e-mail is not held; the WhatsApp message is, and a redelivery in the night sends nothing either.
    expect(await alertMailsOf(id)).toHaveLength(1);
    await caseOpener.openFromAnswer(tenant.tenantId, { transactionId: id, version: 1, now: minutes(mondayNight, 5) });
    expect(await whatsAppsOf(id)).toEqual([]);

    // Ten hours away: it waits in the table; the release leaves it until its minute, then puts it on the case queue.
    const store = released(minutes(quietEnd, -30));
    await releaseDue(store, sendTimers, minutes(quietEnd, -20));
    expect(await caseQueue.drain()).toEqual([]);
    await releaseDue(store, sendTimers, quietEnd);
    const back = await caseQueue.drain();
    expect(back).toEqual([{ tenantId: tenant.tenantId, transactionId: id, version: 1, alert: 'whatsapp', dueAt: quietEnd.toISOString() }]);
    expect(await whatsAppsOf(id)).toEqual([]);

    // Delivered twice at once when the quiet hours end: one message.
    const outcomes = await Promise.all([
      caseOpener.alertHeld(tenant.tenantId, id, quietEnd),
      caseOpener.alertHeld(tenant.tenantId, id, quietEnd),
    ]);
    expect(outcomes).toEqual(['sent', 'sent']);
    const sent = await whatsAppsOf(id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe(phone);
    // And once more through the consumer itself (its IAM grants checked): nothing more, and still one e-mail.
    const again = await invoke('caseOpener', caseOpenerHandler, sqsEvent([back[0]], { queue: 'CaseQueue', receiveCount: 2 }));
    expect(again.batchItemFailures).toEqual([]);
    expect(await whatsAppsOf(id)).toHaveLength(1);
    expect(await alertMailsOf(id)).toHaveLength(1);
  });

  it('sends nothing on WhatsApp when the journey’s rule does not ask for it', async () => {
    tenant = await setUp(false);
    const id = await answer();
    expect(await caseOpener.openFromAnswer(tenant.tenantId, { transactionId: id, version: 1, now: monday })).toBe('opened');
    expect(await alertMailsOf(id)).toHaveLength(1);
    expect(await whatsAppsOf(id)).toEqual([]);
  });
});
