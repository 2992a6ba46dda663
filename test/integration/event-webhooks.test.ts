import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { dataSubjects } from '../../shared/adapters/privacy-repository.js';
import { putDelivery } from '../../shared/adapters/tenant-repository.js';
import { erase } from '../../shared/privacy/service.js';
import { deliveryPorts } from '../../shared/adapters/wiring/events.js';
import { surveyDelivery } from '../../shared/adapters/wiring/surveys.js';
import { ENV, requireEnv } from '../../shared/config.js';
import { DeliveryExhausted, deliverEvent, deliveryId, RETRY_MINUTES } from '../../shared/events/events.js';
import type { EventDelivery } from '../../shared/events/ports.js';
import { eventEndpoint, webhookSecret } from '../../shared/events/signature.js';
import { handler as eventConsumer } from '../../functions/queue/event-webhooks.js';
import { invoke } from '../../infra/local/invoke.js';
import { inProcess } from '../support/api.js';
import { consume, usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { deliverSurvey } from '../../shared/surveys/delivery.js';
import type { DispatchMessage } from '../../shared/surveys/dispatch.js';
import { transactionMessage } from '../../shared/transactions/accept.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { outboxOf } from '../support/mailbox.js';

/**
 * Signed event webhooks against the real table, queue and the local outbox: an answer publishes survey.answered to
 * each endpoint that takes it; the delivery is signed (checked here with the Standard Webhooks library), carries
 * an id that stays the same however often it is delivered, and a failing endpoint is retried with growing waits,
 * listed as failed, and finally dead-lettered.
 */
const events = usePrivateQueue('events');
const dispatch = usePrivateQueue('surveyDispatch');
const api = inProcess('public');
const chatbot = inProcess('chatbot');
const outboxUrl = inject('outboxUrl');
let tenant: TestTenant;
let unique = 0;
const config = () => ({ surveySecret: requireEnv(ENV.surveySecret), baseUrl: requireEnv(ENV.surveyBaseUrl) });

interface Received {
  channel: string;
  text: string;
  headers: Record<string, string>;
  signatureValid: boolean;
  eventId?: string;
  eventType?: string;
}
const received = async (): Promise<Received[]> => (await outboxOf<Received>(outboxUrl)).filter((m) => m.channel === 'event');

/** Registers a sale on journey loja for a customer with an e-mail; answers the transaction's id and its dispatch message. */
async function sale() {
  const id = await registerSale(api, tenant.key);
  const [message] = await dispatch.drain();
  return { id, message: message as unknown as DispatchMessage };
}

async function answeredSale(score: number) {
  const { id } = await sale();
  const answer = await chatbot({
    method: 'POST',
    path: '/survey',
    key: tenant.chatbotKey,
    body: { transactionId: id, attemptId: 1, journey: 'loja', score, comment: 'Bom', classes: [] },
  });
  expect(answer.status).toBe(201);
  return id;
}

beforeAll(async () => {
  tenant = await newTenant();
  await putDelivery(tenant.tenantId, {
    quietHours: null,
    webhooks: [
      { url: `${outboxUrl}/events/${tenant.tenantId}` },
      { url: `${outboxUrl}/events/${tenant.tenantId}?status=503`, events: ['survey.answered'] },
      { url: `${outboxUrl}/events/${tenant.tenantId}?never`, events: ['transaction.rejected'] },
      // The one endpoint that takes answers' comments (opted in).
      { url: `${outboxUrl}/events/${tenant.tenantId}?comments`, events: ['survey.answered'], includeComment: true },
    ],
  });
});

describe('event webhooks', () => {
  it('publishes survey.answered to each endpoint that takes it, signed, with an id that a redelivery keeps', async () => {
    const transactionId = await answeredSale(9);
    const queued = (await events.drain()) as unknown as EventDelivery[];
    expect(queued.map((d) => d.url).sort()).toEqual([
      `${outboxUrl}/events/${tenant.tenantId}`,
      `${outboxUrl}/events/${tenant.tenantId}?comments`,
      `${outboxUrl}/events/${tenant.tenantId}?status=503`,
    ]);
    const good = queued.find((d) => !d.url.includes('status'))!;
    expect(good.event).toMatchObject({
      type: 'survey.answered',
      id: expect.stringMatching(/^evt_[\w-]{32}$/),
      data: {
        transaction_id: transactionId,
        journey: 'loja',
        store_id: 1,
        employee_id: 1,
        attempt_id: 1,
        score: 9,
        correction: false,
      },
    });
    // No contact of the customer's in it, and no comment: this endpoint did not opt in to it.
    expect(JSON.stringify(good.event)).not.toMatch(/@example\.com/);
    expect(good.event.data).not.toHaveProperty('comment');

    const ports = deliveryPorts();
    expect(await deliverEvent(good, ports)).toBe('delivered');
    expect(await deliverEvent(good, ports)).toBe('delivered');
    const got = (await received()).filter((m) => m.eventId === good.event.id);
    expect(got).toHaveLength(2);
    // The receiver verifies the signature with its endpoint's secret (Standard Webhooks' library) and deduplicates by id.
    const secret = webhookSecret({
      rootSecret: requireEnv(ENV.surveySecret),
      tenantId: tenant.tenantId,
      endpoint: eventEndpoint(good.url),
      generation: 1,
    });
    for (const message of got) {
      expect(new Webhook(secret).verify(message.text, message.headers)).toMatchObject({ id: good.event.id });
      expect(message.signatureValid).toBe(true);
    }
    expect(new Set(got.map((m) => JSON.parse(m.text).id)).size).toBe(1);

    // A correction is an event of its own.
    const corrected = await chatbot({
      method: 'PUT',
      path: '/survey',
      key: tenant.chatbotKey,
      body: { transactionId, attemptId: 1, journey: 'loja', score: 10, classes: [] },
    });
    expect(corrected.status).toBe(200);
    const [again] = (await events.drain()) as unknown as EventDelivery[];
    expect(again!.event.id).not.toBe(good.event.id);
    expect(again!.event.data).toMatchObject({ score: 10, correction: true });
  });

  it('retries a failing endpoint with growing waits, lists each failure, then dead-letters it', async () => {
    await answeredSale(7);
    const failing = ((await events.drain()) as unknown as EventDelivery[]).find((d) => d.url.includes('status=503'))!;
    const now = new Date();
    // The queue's own delay hides a requeued delivery for a while: what was requeued is read as it is sent.
    const requeued: [EventDelivery, number][] = [];
    const ports = { ...deliveryPorts(), requeue: async (delivery: EventDelivery, delay: number) => void requeued.push([delivery, delay]) };
    expect(await deliverEvent(failing, ports, now)).toBe('retrying');
    const [[retry, delay]] = requeued as [[EventDelivery, number]];
    expect(retry).toMatchObject({ attempt: 2, notBefore: new Date(now.getTime() + RETRY_MINUTES[0] * 60_000).toISOString() });
    expect(delay).toBe(60);
    // Before its time, a retry only waits again (a wait longer than the queue's longest delay takes several hops).
    expect(await deliverEvent({ ...retry, notBefore: new Date(now.getTime() + 3_600_000).toISOString() }, ports, now)).toBe('waiting');
    expect(requeued[1]![1]).toBe(900);

    const listed = await api({ path: '/public/webhooks/deliveries', key: tenant.key, query: { status: 'failed' } });
    expect(listed.status).toBe(200);
    expect(listed.body.data[0]).toEqual({
      id: deliveryId(failing.event.id, failing.url),
      event_id: failing.event.id,
      type: 'survey.answered',
      url: failing.url,
      attempt: 1,
      failed_at: now.toISOString(),
      error: 'HTTP 503',
      next_attempt_at: retry.notBefore,
    });

    // The last try fails the record: the queue hands it out a few times more, then moves it to its dead-letter queue.
    const last = { ...failing, attempt: RETRY_MINUTES.length + 1 };
    await expect(deliverEvent(last, deliveryPorts())).rejects.toBeInstanceOf(DeliveryExhausted);
    const answer = await invoke('eventWebhooks', eventConsumer, {
      Records: [{ messageId: 'm-1', body: JSON.stringify(last), attributes: { ApproximateReceiveCount: '1' } }],
    } as never);
    expect(answer.batchItemFailures).toEqual([{ itemIdentifier: 'm-1' }]);
    const after = await api({ path: '/public/webhooks/deliveries', key: tenant.key, query: { status: 'failed', limit: 1 } });
    expect(after.body.data).toEqual([expect.objectContaining({ attempt: RETRY_MINUTES.length + 1, next_attempt_at: null })]);
    expect((await api({ path: '/public/webhooks/deliveries', key: tenant.key, query: { status: 'sent' } })).status).toBe(422);

    // An endpoint the tenant no longer lists gets nothing more, retries included.
    const before = (await received()).length;
    expect(await deliverEvent({ ...failing, url: `${outboxUrl}/events/${tenant.tenantId}?removed` }, deliveryPorts())).toBe('dropped');
    expect((await received()).length).toBe(before);
  });

  it("stops sending an erased customer's comment: a delivery still waiting goes without it, under the same id", async () => {
    const { id } = await sale();
    const answered = await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: { transactionId: id, attemptId: 1, journey: 'loja', score: 3, comment: 'Sou a Bia Lima, cpf 52998224725', classes: [] },
    });
    expect(answered.status).toBe(201);
    const waiting = ((await events.drain()) as unknown as EventDelivery[]).find((d) => d.url.endsWith('?comments'))!;
    expect(waiting.event.data.comment).toBe('Sou a Bia Lima, cpf 52998224725');

    const { body } = await api({ path: `/public/transaction/${id}`, key: tenant.key });
    await erase(dataSubjects, tenant.tenantId, {
      customerId: body.customer_id as number,
      mark: { requestId: 'pr_events', at: new Date().toISOString() },
    });
    expect(await deliverEvent(waiting, deliveryPorts())).toBe('delivered');
    const [got] = (await received()).filter((m) => m.eventId === waiting.event.id);
    expect(got!.signatureValid).toBe(true);
    expect(JSON.parse(got!.text)).toEqual({ ...waiting.event, data: { ...waiting.event.data, comment: null } });
  });

  it('publishes survey.failed when an attempt cannot go out, and transaction.rejected with the request id the tenant was given', async () => {
    // The tenant has no e-mail sender configured: the attempt fails, for good.
    const { id, message } = await sale();
    expect(await deliverSurvey({ message, ports: surveyDelivery, config: config() })).toBe('failed');
    const [failed] = (await events.drain()) as unknown as EventDelivery[];
    expect(failed!.event).toMatchObject({
      type: 'survey.failed',
      data: { transaction_id: id, attempt_id: 1, channel: 'email', reason: 'not_configured', next_attempt_id: null },
    });

    const body = {
      store: { id: 1 },
      employee: { id: 1 },
      customer: { externalId: `R-${unique++}`, name: 'Bia' },
      transaction: { journeySlug: 'nope' },
    };
    const queued = transactionMessage(tenant.tenantId, body as never, new Date());
    expect((await consume([queued])).failed).toEqual([]);
    const rejected = (await events.drain()) as unknown as EventDelivery[];
    // Only the endpoints that take rejections: the first (all types) and the third.
    expect(rejected.map((d) => d.url).sort()).toEqual([
      `${outboxUrl}/events/${tenant.tenantId}`,
      `${outboxUrl}/events/${tenant.tenantId}?never`,
    ]);
    const requestId = rejected[0]!.event.data.request_id as string;
    expect(rejected[0]!.event).toMatchObject({
      type: 'transaction.rejected',
      data: { errors: [{ path: 'transaction.journeySlug', message: 'journey "nope" does not exist' }] },
    });
    // The id is the one GET /v2/transactions/requests/{id} reads.
    const outcome = await api({ path: `/v2/transactions/requests/${requestId}`, key: tenant.key });
    expect(outcome.body).toMatchObject({ status: 'rejected' });
  });
});
