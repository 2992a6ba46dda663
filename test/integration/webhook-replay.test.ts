import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putDelivery } from '../../shared/adapters/tenant-repository.js';
import { deliveryReplays } from '../../shared/adapters/event-deliveries.js';
import { deliveryPorts } from '../../shared/adapters/wiring/events.js';
import { ENV, requireEnv } from '../../shared/config.js';
import { deliverEvent, deliveryId } from '../../shared/events/events.js';
import type { EventDelivery } from '../../shared/events/ports.js';
import { eventEndpoint, webhookSecret } from '../../shared/events/signature.js';
import { handler as eventConsumer } from '../../functions/queue/event-webhooks.js';
import { invoke } from '../../infra/local/invoke.js';
import { inProcess } from '../support/api.js';
import { until } from '../support/mailbox.js';
import { usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * Replaying failed webhook deliveries (issue 34 §5) against the real table and queue: a receiver that is down, then
 * recovers, gets each failed event once, signed (checked with the Standard Webhooks library), however many replays,
 * retries and automatic retries race for it.
 */
const events = usePrivateQueue('events');
usePrivateQueue('surveyDispatch');
const api = inProcess('public');
const chatbot = inProcess('chatbot');
let tenant: TestTenant;
let server: Server;
let url: string;
let down = true;
/** What the receiver accepted: the body and headers of each 2xx it answered. */
const accepted: { body: string; headers: Record<string, string> }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      if (down) return void res.writeHead(503).end();
      accepted.push({ body, headers: req.headers as Record<string, string> });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  tenant = await newTenant();
  await putDelivery(tenant.tenantId, { quietHours: null, webhooks: [{ url, events: ['survey.answered'] }] });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** An answered sale's survey.answered delivery, as the event queue carries it. */
async function answeredDelivery(): Promise<EventDelivery> {
  const id = await registerSale(api, tenant.key);
  const answer = await chatbot({
    method: 'POST',
    path: '/survey',
    key: tenant.chatbotKey,
    body: { transactionId: id, attemptId: 1, journey: 'loja', score: 8, classes: [] },
  });
  expect(answer.status).toBe(201);
  // The delivery reaches the queue after the answer's 201 (the event fans out per endpoint): on a loaded machine an
  // immediate read can find the queue still empty.
  const [delivery] = await until(async () => {
    const queued = (await events.drain()) as unknown as EventDelivery[];
    return queued.length ? queued : undefined;
  }, "the answer's event delivery");
  return delivery!;
}

describe('webhook replay', () => {
  it('delivers a failed delivery once after its endpoint recovers, however many replays and retries race for it', async () => {
    // Prepare: the endpoint is down, the delivery fails and waits for its automatic retry.
    down = true;
    const delivery = await answeredDelivery();
    const requeued: EventDelivery[] = [];
    const ports = { ...deliveryPorts(), requeue: async (d: EventDelivery) => void requeued.push(d) };
    expect(await deliverEvent(delivery, ports)).toBe('retrying');
    const id = deliveryId(delivery.event.id, url);
    const listed = await api({ path: '/public/webhooks/deliveries', key: tenant.key, query: { status: 'failed' } });
    expect(listed.body.data[0]).toMatchObject({ id, event_id: delivery.event.id, error: 'HTTP 503' });
    down = false;

    // Act: two replays and a retry at once; only one of them claims the delivery.
    const since = new Date(Date.parse(delivery.event.created_at) - 60_000).toISOString();
    const replay = () =>
      api({ method: 'POST', path: '/public/webhooks/deliveries/replay', key: tenant.adminKey, body: { endpoint: url, since } });
    const retry = () => api({ method: 'POST', path: `/public/webhooks/deliveries/${id}/retry`, key: tenant.adminKey });
    const answers = await Promise.all([replay(), replay(), retry()]);

    // Assess: one claim, one message queued, one receipt, signed; the automatic retry finds it delivered.
    const [first, second, single] = answers;
    expect(first!.status).toBe(202);
    expect(second!.status).toBe(202);
    // A retry answers 202 whether it claimed the delivery or found it being re-sent: either way it is sent once.
    expect(single!.body).toEqual({ id, status: 'replaying' });
    expect([...first!.body.replayed, ...second!.body.replayed].length).toBeLessThanOrEqual(1);
    const queued = await events.drain();
    expect(queued).toHaveLength(1);
    const result = await invoke('eventWebhooks', eventConsumer, {
      Records: [{ messageId: 'r-1', body: JSON.stringify(queued[0]), attributes: { ApproximateReceiveCount: '1' } }],
    } as never);
    expect(result.batchItemFailures).toEqual([]);
    expect(await deliverEvent(requeued[0]!, deliveryPorts())).toBe('dropped');
    // The failure listed no longer announces the retry that was dropped.
    const failures = await api({ path: '/public/webhooks/deliveries', key: tenant.key, query: { status: 'failed' } });
    expect(failures.body.data.find((f: { id: string; attempt: number }) => f.id === id && f.attempt === 1)).toMatchObject({
      next_attempt_at: null,
    });
    const got = accepted.filter((m) => JSON.parse(m.body).id === delivery.event.id);
    expect(got).toHaveLength(1);
    const secret = webhookSecret({
      rootSecret: requireEnv(ENV.surveySecret),
      tenantId: tenant.tenantId,
      endpoint: eventEndpoint(url),
      generation: 1,
    });
    expect(new Webhook(secret).verify(got[0]!.body, got[0]!.headers)).toMatchObject({ id: delivery.event.id, data: delivery.event.data });

    // Delivered: a retry is refused, a replay finds nothing; each replay and retry is in the audit log, by key.
    const again = await retry();
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('The delivery is not failed: it is delivered.');
    expect((await replay()).body).toEqual({ replayed: [], next_cursor: null });
    const audit = await api({ path: '/public/admin/audit', key: tenant.adminKey });
    type Entry = { action: string; actor: { keyId?: string }; changes: { path: string; new: unknown }[] };
    const entries = (audit.body.data as Entry[]).filter((e) => e.action.startsWith('webhook.'));
    // Three replays, and the retry if it claimed the delivery: a refused one, or one that found the delivery already
    // being re-sent (202, the same answer), changes nothing and is not recorded.
    expect(entries.length).toBeGreaterThanOrEqual(3);
    expect(entries.length).toBeLessThanOrEqual(single!.status === 202 ? 4 : 3);
    expect(entries.every((e) => typeof e.actor.keyId === 'string')).toBe(true);
    const sent = entries.map((e) => (e.action === 'webhook.retry' ? 1 : (e.changes[0]!.new as { replayed: number }).replayed));
    expect(sent.reduce((a, b) => a + b)).toBe(1);
    expect(entries).toContainEqual(
      expect.objectContaining({
        action: 'webhook.replay',
        changes: [{ path: 'webhooks.replay', old: null, new: { endpoint: url, since, replayed: 0 } }],
      }),
    );
  });

  it('answers 404 for an unknown delivery, 422 for a malformed id, 403 for a key that is not admin, 400 naming a bad field', async () => {
    const unknown = await api({ method: 'POST', path: `/public/webhooks/deliveries/dlv_${'A'.repeat(32)}/retry`, key: tenant.adminKey });
    expect(unknown.status).toBe(404);
    const malformed = await api({ method: 'POST', path: '/public/webhooks/deliveries/nope/retry', key: tenant.adminKey });
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors).toEqual([expect.objectContaining({ path: 'id' })]);
    const notAdmin = await api({
      method: 'POST',
      path: '/public/webhooks/deliveries/replay',
      key: tenant.key,
      body: { endpoint: url, since: '2026-01-01' },
    });
    expect(notAdmin.status).toBe(403);
    const bad = await api({
      method: 'POST',
      path: '/public/webhooks/deliveries/replay',
      key: tenant.adminKey,
      body: { endpoint: url, since: 'yesterday' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: 'since' })]);
  });

  it('replays a bounded page at a time: the cursor continues where the last call stopped', async () => {
    down = true;
    const deliveries = [await answeredDelivery(), await answeredDelivery()];
    for (const d of deliveries) expect(await deliverEvent(d, { ...deliveryPorts(), requeue: async () => {} })).toBe('retrying');
    down = false;
    const since = deliveries[0]!.event.created_at;
    // One per page here (the route's page is REPLAY_PAGE): the sealed cursor carries the replay across pages.
    const first = await deliveryReplays.failedSince(tenant.tenantId, { url, since, limit: 1, cursor: undefined });
    expect(first.ids).toEqual([deliveryId(deliveries[0]!.event.id, url)]);
    const second = await deliveryReplays.failedSince(tenant.tenantId, { url, since, limit: 1, cursor: first.next_cursor! });
    expect(second.ids).toEqual([deliveryId(deliveries[1]!.event.id, url)]);
    await expect(
      deliveryReplays.failedSince(tenant.tenantId, {
        url,
        since: deliveries[1]!.event.created_at,
        limit: 1,
        cursor: first.next_cursor!,
      }),
    ).rejects.toMatchObject({
      errors: [expect.objectContaining({ path: 'cursor' })],
    });
  });
});
