import { beforeAll, describe, expect, inject, it } from 'vitest';
import { attemptStore, reachability, storeNames, suppressAddress } from '../../shared/adapters/attempt-repository.js';
import { dueAttempts } from '../../shared/adapters/due-attempts.js';
import { senders } from '../../shared/adapters/senders.js';
import { putDelivery, putSettings } from '../../shared/adapters/tenant-repository.js';
import { ENV, requireEnv } from '../../shared/config.js';
import { showSurvey } from '../../shared/surveys/answer-page.js';
import { deliverSurvey } from '../../shared/surveys/delivery.js';
import type { DispatchMessage } from '../../shared/surveys/dispatch.js';
import { dueScheduler, MAX_MINUTES_PER_RUN, releaseDue, type DelayedSend } from '../../shared/surveys/scheduler.js';
import type { Settings } from '../../shared/tenants/config-schema.js';
import { surveyPage } from '../../shared/adapters/wiring/surveys.js';
import { tenantSettings } from '../../shared/adapters/wiring/tenants.js';
import { inProcess } from '../support/api.js';
import { usePrivateQueue } from '../support/queues.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';
import { outboxOf, emailsTo } from '../support/mailbox.js';

/**
 * Survey attempts over time against the real table, SES emulator and outbox, with a clock the test holds: delivery
 * runs with the time it is given, and the queue side of the scheduler is a list the test reads (the queue's own
 * delay is exercised end to end through the local stack). The due-attempts table, its checkpoint and the claims are
 * the real ones.
 */

const dispatch = usePrivateQueue('surveyDispatch');
const api = inProcess('public');
const chatbot = inProcess('chatbot');
const [sesUrl, outboxUrl] = [inject('sesUrl'), inject('outboxUrl')];
const config = () => ({ surveySecret: requireEnv(ENV.surveySecret), baseUrl: requireEnv(ENV.surveyBaseUrl) });
let tenant: TestTenant;
let unique = 0;

/** What the scheduler put on the queue, and when it would arrive. */
const queued: { message: DispatchMessage; delaySeconds: number }[] = [];
let queueDown = false;
const send: DelayedSend = async (messages) => {
  if (queueDown) return messages.map((_, i) => i);
  queued.push(...messages);
  return [];
};
const ports = {
  attempts: attemptStore,
  reachability,
  stores: storeNames,
  senders,
  scheduler: dueScheduler(dueAttempts, send),
  settings: tenantSettings,
};
const deliver = (message: DispatchMessage, at: Date) => deliverSurvey({ message, ports, config: config(), now: at });
const minutes = (from: Date, n: number) => new Date(from.getTime() + n * 60_000);
/** The test's clock starts now, to the minute: the scheduler's checkpoint is shared with the local stack's timer. */
const t0 = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const noon = t0;
const clock = (date: Date) => date.toISOString().slice(11, 16);

const journeys: Settings['journeys'] = [
  ...DEMO_SETTINGS.journeys,
  ...(
    [
      [
        11,
        'reminder',
        [
          ['whatsapp', 0],
          ['email', 60],
        ],
      ],
      [
        12,
        'sms-first',
        [
          ['sms', 0],
          ['email', 5],
        ],
      ],
      [
        13,
        'short',
        [
          ['email', 0],
          ['whatsapp', 5],
        ],
      ],
    ] as const
  ).map(([id, slug, steps]) => ({
    id,
    slug,
    indicator: 'nps' as const,
    classes: [1],
    channels: ['whatsapp' as const, 'email' as const],
    resurveyWindowDays: null,
    surveyValidityDays: 1,
    handOff: [],
    attempts: steps.map(([channel, afterMinutes]) => ({ channel, afterMinutes })),
  })),
];

beforeAll(async () => {
  tenant = await newTenant();
  await putSettings(tenant.tenantId, { ...DEMO_SETTINGS, journeys });
  await putDelivery(tenant.tenantId, {
    // An hour of quiet six hours from now (UTC): the other tests run outside it, whenever they run.
    quietHours: { timeZone: 'UTC', from: clock(minutes(t0, 6 * 60)), to: clock(minutes(t0, 7 * 60)) },
    email: { from: 'pesquisa@loja.example', name: 'Loja Exemplo' },
    sms: { originationIdentity: '+5511900000001' },
    whatsapp: { phoneNumberId: 'pn-test', template: 'pesquisa_satisfacao', language: 'pt_BR' },
  });
});

/** Registers a transaction on a journey (legacy, synchronous) and returns its id and attempt 1's dispatch message. */
async function transaction(journey: string, customer: { phone?: string; email?: string }) {
  const res = await api({
    method: 'POST',
    path: '/public/transaction',
    key: tenant.key,
    body: { store_id: 1, employee_id: 1, journey, customer_integration: `A-${Date.now()}-${unique++}`, name: 'Bia Lima', ...customer },
  });
  expect(res.status, res.text).toBe(201);
  const [message] = await dispatch.drain();
  return { id: res.body.id as number, message: message as DispatchMessage };
}

const view = async (id: number) => (await api({ path: `/public/transaction/${id}`, key: tenant.key })).body;
const newPhone = () => `+55119${String((Date.now() + unique++) % 10_000_000).padStart(7, '0')}`;
const newEmail = () => `attempts-${Date.now()}-${unique++}@example.com`;
const mailTo = (address: string) => emailsTo<{ destination: { to: string[] }; body: { text?: string } }>(sesUrl, address);
const outboxTo = async (to: string) => (await outboxOf<{ to: string; link: string | null }>(outboxUrl)).filter((m) => m.to === to);

/**
 * Releases every minute up to `now`, as many runs of the scheduler would (each run releases a bounded number of
 * minutes).
 */
async function releaseUntil(now: Date): Promise<void> {
  for (let run = 0; run < 20; run++) if ((await releaseDue(dueAttempts, send, now)).minutes < MAX_MINUTES_PER_RUN) return;
}

describe('survey attempts over time', () => {
  it('sends the second attempt after its wait and not before, on its own channel, once', async () => {
    const [phone, email] = [newPhone(), newEmail()];
    const { id, message } = await transaction('reminder', { phone, email });
    expect(await deliver(message, noon)).toBe('sent');
    expect(await outboxTo(phone)).toHaveLength(1);
    // Attempt 2 is due an hour later: too far for the queue's delay, it waits in the table.
    expect((await view(id)).attempts).toMatchObject([
      { attempt_id: 1, channel: 'whatsapp', status: 'sent', sent_at: noon.toISOString() },
      { attempt_id: 2, channel: 'email', status: 'scheduled', due_at: minutes(noon, 60).toISOString() },
    ]);
    queued.length = 0;
    await releaseUntil(minutes(noon, 45));
    expect(queued.filter((q) => q.message.transactionId === id)).toEqual([]);
    await releaseUntil(minutes(noon, 52));
    const [second] = queued.filter((q) => q.message.transactionId === id);
    expect(second).toEqual({ message: expect.objectContaining({ attemptId: 2, channel: 'email' }), delaySeconds: 480 });
    // Arriving early, it is held again; on time, it goes; redelivered, it does not go twice.
    expect(await deliver(second!.message, minutes(noon, 55))).toBe('held');
    expect(await deliver(second!.message, minutes(noon, 60))).toBe('sent');
    expect(await deliver(second!.message, minutes(noon, 61))).toBe('duplicate');
    expect(await mailTo(email)).toHaveLength(1);
    const after = await view(id);
    expect(after.survey).toMatchObject({ status: 'sent', attempt_id: 2, channel: 'email' });
    expect(after.attempts.map((a: { status: string }) => a.status)).toEqual(['sent', 'sent']);
  });

  it('skips a channel that cannot reach the customer: no phone at registration, an address known to bounce at delivery', async () => {
    const email = newEmail();
    const noPhone = await transaction('sms-first', { email });
    expect(noPhone.message).toMatchObject({ attemptId: 2, channel: 'email' });
    expect((await view(noPhone.id)).attempts.map((a: { status: string }) => a.status)).toEqual(['skipped', 'scheduled']);

    const [phone, bouncing] = [newPhone(), newEmail()];
    await suppressAddress(tenant.tenantId, { address: bouncing, reason: 'bounce', at: noon });
    const { id, message } = await transaction('short', { phone, email: bouncing });
    queued.length = 0;
    expect(await deliver(message, noon)).toBe('failed');
    // The whatsapp attempt takes the failed one's place at once.
    expect(queued).toEqual([
      { message: expect.objectContaining({ transactionId: id, attemptId: 2, channel: 'whatsapp' }), delaySeconds: 0 },
    ]);
    expect(await deliver(queued[0]!.message, noon)).toBe('sent');
    expect(await outboxTo(phone)).toHaveLength(1);
    expect((await view(id)).attempts.map((a: { status: string }) => a.status)).toEqual(['failed', 'sent']);
  });

  // The scheduler walks six hours of minutes (one Query each) to the morning: about 20 s on a quiet machine, 85 s beside
  // CI's other tiers and a CPU-bound process (.ci/run beside `yes`).
  it('holds an SMS due in quiet hours and sends it when they end; e-mail is not held', { timeout: 240_000 }, async () => {
    const [phone, email] = [newPhone(), newEmail()];
    const { id, message } = await transaction('sms-first', { phone, email });
    const night = minutes(t0, 6 * 60 + 30); // inside the tenant's quiet hour
    queued.length = 0;
    expect(await deliver(message, night)).toBe('held');
    expect(await outboxTo(phone)).toHaveLength(0);
    const morning = minutes(t0, 7 * 60); // when it ends
    expect((await view(id)).attempts[0]).toMatchObject({ status: 'scheduled', due_at: morning.toISOString() });
    // Half an hour away, the held message waits in the table until the scheduler releases its minute.
    await releaseUntil(minutes(morning, -5));
    const held = queued.find((q) => q.message.transactionId === id)!;
    expect(held.message.dueAt).toBe(morning.toISOString());
    expect(await deliver(held.message, morning)).toBe('sent');
    expect(await outboxTo(phone)).toHaveLength(1);
    // The e-mail reminder is due five minutes later; at night it would go all the same.
    const reminder = queued.find((q) => q.message.transactionId === id && q.message.attemptId === 2)!;
    expect(reminder.message.dueAt).toBe(minutes(morning, 5).toISOString());
    expect(await deliver({ ...reminder.message, dueAt: minutes(night, 1440).toISOString() }, minutes(night, 1440))).toBe('sent');
    expect(await mailTo(email)).toHaveLength(1);
  });

  it('an answer on attempt 1 cancels attempt 2; attempt 1 link answers while attempt 2 is the current one', async () => {
    const [phone, email] = [newPhone(), newEmail()];
    const answered = await transaction('short', { phone, email });
    queued.length = 0;
    expect(await deliver(answered.message, noon)).toBe('sent');
    const res = await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: { transactionId: answered.id, attemptId: 1, journey: 'short', score: 9, classes: [] },
    });
    expect(res.status, res.text).toBe(201);
    const second = queued.find((q) => q.message.transactionId === answered.id)!;
    expect(await deliver(second.message, minutes(noon, 5))).toBe('duplicate');
    expect(await outboxTo(phone)).toHaveLength(0);
    expect((await view(answered.id)).attempts.map((a: { status: string }) => a.status)).toEqual(['sent', 'cancelled']);

    // Both attempts sent: the first one's link still answers.
    const later = await transaction('short', { phone: newPhone(), email: newEmail() });
    queued.length = 0;
    await deliver(later.message, noon);
    await deliver(queued.find((q) => q.message.transactionId === later.id)!.message, minutes(noon, 5));
    const again = await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: { transactionId: later.id, attemptId: 1, journey: 'short', score: 7, classes: [] },
    });
    expect(again.status, again.text).toBe(201);
    expect((await view(later.id)).survey).toMatchObject({ status: 'answered', attempt_id: 2 });
  });

  it('expires: its links answer 410, the chatbot reads expired, no attempt goes out after', async () => {
    const email = newEmail();
    const { id, message } = await transaction('short', { phone: newPhone(), email });
    const longAgo = new Date(Date.now() - 2 * 86_400_000); // the journey's links last one day
    queued.length = 0;
    expect(await deliver(message, longAgo)).toBe('sent');
    const link = /\/s\/([\w-]{44})/.exec((await mailTo(email))[0]!.body.text!)![1]!;
    expect((await showSurvey({ token: link, score: undefined, ports: surveyPage, secret: requireEnv(ENV.surveySecret) })).status).toBe(410);
    const read = await chatbot({
      path: '/survey',
      key: tenant.chatbotKey,
      query: { transactionId: id, attemptId: 1, journey: 'short', source: 'email' },
    });
    expect(read.body).toMatchObject({ status: 'expired', statusCode: 4 });
    expect(await deliver(queued[0]!.message, new Date())).toBe('expired');
    const seen = await view(id);
    expect(seen.survey.status).toBe('expired');
    expect(seen.attempts.map((a: { status: string }) => a.status)).toEqual(['sent', 'cancelled']);
  });

  // Also a walk of the scheduler's minutes (to eight hours on), twice: 10 s alone, 30 s beside the suite.
  it(
    'loses nothing when the scheduler stops between reading a minute and queueing it, and releases each once it runs again',
    { timeout: 90_000 },
    async () => {
      const base = minutes(t0, 8 * 60);
      const messages = [1, 2, 3].map((n): DispatchMessage => ({
        version: 1,
        tenantId: tenant.tenantId,
        transactionId: 900_000 + n,
        attemptId: 2,
        journeyId: 13,
        journey: 'short',
        channel: 'email',
        createdAt: noon.toISOString(),
      }));
      for (const m of messages) await ports.scheduler.schedule(m, minutes(base, 30), base);
      queueDown = true;
      await expect(releaseUntil(minutes(base, 25))).rejects.toThrow('could not be queued');
      queueDown = false;
      queued.length = 0;
      await releaseUntil(minutes(base, 25));
      expect(queued.map((q) => q.message.transactionId).sort()).toEqual([900_001, 900_002, 900_003]);
      queued.length = 0;
      await releaseUntil(minutes(base, 26));
      expect(queued).toEqual([]);
    },
  );
});
