import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { putDelivery } from '../../shared/adapters/tenant-repository.js';
import { deliveryPorts } from '../../shared/adapters/wiring/events.js';
import { senders } from '../../shared/adapters/senders.js';
import { ENV } from '../../shared/config.js';
import { deliverEvent } from '../../shared/events/events.js';
import type { EventDelivery } from '../../shared/events/ports.js';
import { DeliveryRefused } from '../../shared/surveys/ports.js';
import { inProcess } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * Which webhook addresses a deployment takes. On AWS (no LOCAL_DEPLOYMENT) a function's localhost is the Lambda
 * Runtime API, 169.254.169.254 and 169.254.170.2 hand out credentials and private ranges reach the operator's network:
 * a tenant may name none of them, in any spelling, and a name resolving to one is never called. The local stack sets
 * the flag, and its outbox on localhost keeps working (event-webhooks.test.ts).
 */
const api = inProcess('public');
const CONFIG = '/public/admin/config';
const onAws = () => vi.stubEnv(ENV.localDeployment, undefined);
let tenant: TestTenant;
let receiver: Server;
let port: number;
const calls: string[] = [];

beforeAll(async () => {
  tenant = await newTenant();
  receiver = createServer((req, res) => {
    calls.push(req.url ?? '');
    res.writeHead(204).end();
  });
  receiver.on('connection', () => calls.push('connection'));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  port = (receiver.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
afterEach(() => {
  vi.unstubAllEnvs();
  calls.length = 0;
});

const LOOPBACK_OR_PRIVATE = [
  'https://127.0.0.1:9001/2018-06-01/runtime/invocation/next',
  'https://127.0.0.2/hook',
  'https://[::1]/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'https://0.0.0.0/hook',
  'https://localhost./hook',
  'https://hooks.localhost/hook',
  'https://intranet/hook',
  'https://2130706433/hook',
  'https://0x7f.1/hook',
  'https://169.254.169.254/latest/meta-data/',
  'https://169.254.170.2/v2/credentials',
  'https://10.0.0.1/hook',
  'https://172.16.0.1/hook',
  'https://192.168.1.1/hook',
  'https://100.64.0.1/hook',
  'https://[fd00:ec2::254]/hook',
  'https://[fe80::1]/hook',
];
const PLAIN_HTTP = [
  'http://localhost:8006/events/1',
  'http://127.0.0.1:9001/2018-06-01/runtime/invocation/next',
  'http://hooks.example.com/',
];

async function replaceDelivery(delivery: Record<string, unknown>) {
  const before = await api({ path: CONFIG, key: tenant.adminKey });
  const res = await api({
    method: 'PUT',
    path: CONFIG,
    key: tenant.adminKey,
    body: { ...before.body, delivery: { ...before.body.delivery, ...delivery } },
    headers: { 'if-match': before.headers.etag! },
  });
  const after = await api({ path: CONFIG, key: tenant.adminKey });
  return { res, unchanged: after.headers.etag === before.headers.etag && JSON.stringify(after.body) === JSON.stringify(before.body) };
}

describe('webhook addresses on AWS', () => {
  it.each([
    ...LOOPBACK_OR_PRIVATE.map((url) => [
      url,
      'must be https on a public host (not a local name, nor a loopback, link-local or private address)',
    ]),
    ...PLAIN_HTTP.map((url) => [url, 'must be https on a public host (http only on a local deployment)']),
  ])('refuses %s as an event endpoint and as the chatbot, with 400 naming the field, storing nothing', async (url, message) => {
    // Prepare
    onAws();

    // Act
    const endpoint = await replaceDelivery({ webhooks: [{ url }] });
    const chatbot = await replaceDelivery({ chatbot: { url } });

    // Assess
    expect([endpoint.res.status, chatbot.res.status]).toEqual([400, 400]);
    expect(endpoint.res.body.errors).toEqual([{ path: 'delivery.webhooks.0.url', message }]);
    expect(chatbot.res.body.errors).toEqual([{ path: 'delivery.chatbot.url', message }]);
    expect([endpoint.unchanged, chatbot.unchanged]).toEqual([true, true]);
  });

  it('takes https on a public host', async () => {
    onAws();
    const webhooks = [{ url: 'https://receiver.example:8443/hooks/survey?source=pesquisa' }, { url: 'https://8.8.8.8/hook' }];

    const { res } = await replaceDelivery({ webhooks });

    expect(res.status).toBe(200);
    expect((await api({ path: CONFIG, key: tenant.adminKey })).body.delivery.webhooks).toEqual(webhooks);
  });

  it('answers 400 (not 500) for a webhook that is not a URL, on either deployment', async () => {
    const local = await replaceDelivery({ webhooks: [{ url: 'not a url' }] });
    onAws();
    const aws = await replaceDelivery({ chatbot: { url: 'nope' } });

    expect([local.res.status, aws.res.status]).toEqual([400, 400]);
    expect(local.res.body.errors).toEqual([{ path: 'delivery.webhooks.0.url', message: 'must be a URL' }]);
    expect(aws.res.body.errors).toEqual([{ path: 'delivery.chatbot.url', message: 'must be a URL' }]);
    expect([local.unchanged, aws.unchanged]).toEqual([true, true]);
  });

  it('never calls an endpoint stored before the rule whose name resolves to 127.0.0.1, and lists why it failed', async () => {
    // Prepare: stored as an older configuration could hold it (written without the schema's check).
    const url = `http://localhost:${port}/events`;
    await putDelivery(tenant.tenantId, { quietHours: null, webhooks: [{ url }] });
    const delivery: EventDelivery = {
      tenantId: tenant.tenantId,
      url,
      event: { id: `evt_addr_${Date.now()}`, type: 'survey.answered', created_at: new Date().toISOString(), data: {} },
      attempt: 1,
    };
    const ports = { ...deliveryPorts(), requeue: async () => {} };

    // Act: on AWS, then on the local stack.
    onAws();
    const onAwsOutcome = await deliverEvent(delivery, ports);
    const callsOnAws = [...calls];
    const listed = await api({ path: '/public/webhooks/deliveries', key: tenant.key, query: { status: 'failed', limit: 1 } });
    vi.unstubAllEnvs();
    const localOutcome = await deliverEvent(delivery, ports);

    // Assess
    expect(onAwsOutcome).toBe('retrying');
    expect(callsOnAws).toEqual([]);
    expect(listed.body.data).toEqual([expect.objectContaining({ event_id: delivery.event.id, error: 'not a public host' })]);
    expect(localOutcome).toBe('delivered');
    expect(calls).toContain('/events');
  });

  it.each(['http://localhost', 'http://127.0.0.1', 'http://[::ffff:127.0.0.1]'])(
    'refuses to hand a survey to a chatbot at %s (permanently), and never connects',
    async (host) => {
      onAws();
      const message = { url: `${host}:${port}/chatbot`, headers: { 'webhook-id': 'msg_1' }, body: '{}' };

      await expect(senders.webhook(message)).rejects.toBeInstanceOf(DeliveryRefused);

      expect(calls).toEqual([]);
    },
  );
});
