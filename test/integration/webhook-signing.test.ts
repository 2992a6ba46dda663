import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { readSettings } from '../../shared/adapters/settings-repository.js';
import { eventDeliveryPorts } from '../../shared/adapters/event-deliveries.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { ENV, requireEnv } from '../../shared/config.js';
import { deliverEvent } from '../../shared/events/events.js';
import type { EventDelivery } from '../../shared/events/ports.js';
import { deliverSurvey } from '../../shared/surveys/delivery.js';
import type { DispatchMessage } from '../../shared/surveys/dispatch.js';
import { inProcess } from '../support/api.js';
import { deliveryPorts, linkConfig } from '../support/delivery.js';
import { usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';
import { command } from '../support/commands.js';
import { outboxOf } from '../support/mailbox.js';

/**
 * Webhook signing as a tenant's receiver sees it: the secrets are taken from what `apply` and `rotate-webhook-secret`
 * show once, and every real delivery the local outbox received (events and the chatbot hand-off) is verified with the
 * Standard Webhooks library. Each endpoint verifies with its own secret and with no other; during a rotation window
 * both the old and the new secret verify, after it only the new. Settings are read uncached here (a Lambda's cache
 * holds them up to a minute), so that a rotation shows at once.
 */
const events = usePrivateQueue('events');
const dispatch = usePrivateQueue('surveyDispatch');
const api = inProcess('public');
const chatbot = inProcess('chatbot');
const outboxUrl = inject('outboxUrl');
const eventPorts = () => eventDeliveryPorts(readSettings, () => requireEnv(ENV.surveySecret));
const handOffPorts = { ...deliveryPorts, settings: readSettings };
let tenant: TestTenant;
let urls: { plain: string; withComment: string; chatbot: string };
/** The secrets as `apply` showed them, by label. */
const shown = new Map<string, string>();

interface Received {
  channel: string;
  to: string | null;
  text: string;
  signatureValid: boolean;
  headers: Record<string, string>;
  eventId?: string;
}
const received = async () => await outboxOf<Received>(outboxUrl);

/** Whether a tenant's receiver holding `secret` accepts this delivery. */
const verifies = (secret: string, message: Received) => {
  try {
    new Webhook(secret).verify(message.text, message.headers);
    return true;
  } catch {
    return false;
  }
};

/** Answers a new sale through the chatbot API (with a comment) and delivers its survey.answered to each endpoint. */
async function answerAndDeliver(now = new Date()): Promise<{ transactionId: number; got: Map<string, Received> }> {
  const transactionId = await registerSale(api, tenant.key);
  await dispatch.drain();
  const answer = await chatbot({
    method: 'POST',
    path: '/survey',
    key: tenant.chatbotKey,
    body: { transactionId, attemptId: 1, journey: 'loja', score: 4, comment: 'meu CPF é 123.456.789-09', classes: [] },
  });
  expect(answer.status, answer.text).toBe(201);
  const queued = (await events.drain()) as unknown as EventDelivery[];
  expect(queued.map((d) => d.url).sort()).toEqual([urls.plain, urls.withComment].sort());
  for (const delivery of queued) expect(await deliverEvent(delivery, eventPorts(), now)).toBe('delivered');
  const id = queued[0]!.event.id;
  const got = new Map((await received()).filter((m) => m.eventId === id).map((m) => [`${outboxUrl}${m.to}`, m]));
  expect(got.size).toBe(2);
  return { transactionId, got };
}

/** Registers a sale on journey atendimento (handed to the chatbot) and delivers its attempt: the hand-off received. */
async function handOff(now = new Date()): Promise<Received> {
  const phone = `+55119${String(Date.now()).slice(-8)}`;
  await registerSale(api, tenant.key, { journey: 'atendimento', phone });
  const [message] = (await dispatch.drain()) as unknown as DispatchMessage[];
  expect(await deliverSurvey({ message: message!, ports: handOffPorts, config: linkConfig(), now })).toBe('sent');
  const hooks = (await received()).filter((m) => m.channel === 'webhook' && m.to === phone);
  expect(hooks).toHaveLength(1);
  return hooks[0]!;
}

beforeAll(async () => {
  tenant = await newTenant();
  urls = {
    plain: `${outboxUrl}/events/${tenant.tenantId}?plain`,
    withComment: `${outboxUrl}/events/${tenant.tenantId}?comments`,
    chatbot: `${outboxUrl}/webhooks/${tenant.tenantId}`,
  };
  const file = {
    ...DEMO_SETTINGS,
    id: tenant.tenantId,
    name: `signing-${tenant.tenantId}`,
    users: [],
    keys: [],
    delivery: {
      quietHours: null,
      chatbot: { url: urls.chatbot },
      webhooks: [{ url: urls.plain }, { url: urls.withComment, includeComment: true }],
    },
  };
  // What `npm run admin -- apply` runs and prints.
  const report = await tenantService.applyTenantConfig(file);
  for (const line of report) {
    const [, label, secret] = /^ {2}(.+) signing secret \(shown once\): (whsec_\S+)$/.exec(line) ?? [];
    if (label) shown.set(label, secret!);
  }
  expect([...shown.keys()].sort()).toEqual(
    ['chatbot webhook', `events endpoint ${urls.plain}`, `events endpoint ${urls.withComment}`].sort(),
  );
  // Applying the same file again shows no secret: each is shown once.
  const again = await tenantService.applyTenantConfig(file);
  expect(again.join('\n')).not.toMatch(/whsec_/);
});

describe('webhook signing (Standard Webhooks)', () => {
  it('signs each event endpoint with its own secret, and sends the comment only to the endpoint that opted in', async () => {
    const { transactionId, got } = await answerAndDeliver();
    const plain = got.get(urls.plain)!;
    const withComment = got.get(urls.withComment)!;
    const plainSecret = shown.get(`events endpoint ${urls.plain}`)!;
    const commentSecret = shown.get(`events endpoint ${urls.withComment}`)!;

    expect(plain.headers['webhook-id']).toBe(JSON.parse(plain.text).id);
    expect(plain.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect([plain.signatureValid, withComment.signatureValid]).toEqual([true, true]);
    expect(verifies(plainSecret, plain)).toBe(true);
    expect(verifies(commentSecret, withComment)).toBe(true);
    // No receiver can forge what another receives: neither the other endpoint's secret nor the chatbot's verifies.
    expect(verifies(commentSecret, plain)).toBe(false);
    expect(verifies(plainSecret, withComment)).toBe(false);
    expect(verifies(shown.get('chatbot webhook')!, plain)).toBe(false);

    // L5: the comment (here with a CPF) reaches only the endpoint with includeComment; the rest is the same.
    const [a, b] = [JSON.parse(plain.text), JSON.parse(withComment.text)];
    expect(a.data).not.toHaveProperty('comment');
    expect(plain.text).not.toContain('123.456.789-09');
    expect(b.data).toMatchObject({ transaction_id: transactionId, score: 4, comment: 'meu CPF é 123.456.789-09' });
    const { comment: _, ...rest } = b.data;
    expect(a).toEqual({ ...b, data: rest });
  });

  it("signs the chatbot hand-off with the hand-off's own secret, which no event endpoint holds", async () => {
    const hook = await handOff();
    expect(hook.signatureValid).toBe(true);
    expect(hook.headers['webhook-id']).toMatch(new RegExp(`^attempt_${tenant.tenantId}_\\d+_1$`));
    expect(verifies(shown.get('chatbot webhook')!, hook)).toBe(true);
    expect(verifies(shown.get(`events endpoint ${urls.plain}`)!, hook)).toBe(false);
    expect(verifies(shown.get(`events endpoint ${urls.withComment}`)!, hook)).toBe(false);
  });

  it('rotates an event endpoint: both secrets verify during the window, only the new one after it', async () => {
    const oldSecret = shown.get(`events endpoint ${urls.plain}`)!;
    const now = new Date();
    // A one-minute window (the admin command's default is a day).
    const rotated = await tenantService.rotateWebhookSecret(tenant.tenantId, { target: urls.plain, overlapHours: 1 / 60, now });
    expect(rotated).toMatchObject({ label: `events endpoint ${urls.plain}`, generation: 2 });
    expect(rotated.secret).not.toBe(oldSecret);

    const during = (await answerAndDeliver(now)).got.get(urls.plain)!;
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifies(rotated.secret, during)).toBe(true);
    expect(verifies(oldSecret, during)).toBe(true);

    // Two minutes on (still inside a receiver's 5-minute tolerance): the window is over.
    const after = (await answerAndDeliver(new Date(now.getTime() + 120_000))).got.get(urls.plain)!;
    expect(after.signatureValid).toBe(true);
    expect(verifies(rotated.secret, after)).toBe(true);
    expect(verifies(oldSecret, after)).toBe(false);
    // The other endpoint was not rotated.
    const other = (await answerAndDeliver(now)).got.get(urls.withComment)!;
    expect(verifies(shown.get(`events endpoint ${urls.withComment}`)!, other)).toBe(true);
  });

  it('rotates the chatbot hand-off with the admin command, which shows the new secret once', async () => {
    const oldSecret = shown.get('chatbot webhook')!;
    const { stdout } = await command('infra/admin.ts', [
      'rotate-webhook-secret',
      '--tenant',
      String(tenant.tenantId),
      '--chatbot',
      '--overlap-hours',
      '0.02',
    ]);
    const [, secret] = /^(whsec_\S+)$/m.exec(stdout) ?? [];
    expect(stdout).toMatch(/^chatbot webhook: signing secret generation 2 \(shown once/m);
    expect(secret).toBeDefined();
    expect(secret).not.toBe(oldSecret);

    const during = await handOff();
    expect(verifies(secret!, during)).toBe(true);
    expect(verifies(oldSecret, during)).toBe(true);
    // The window was 72 seconds: two minutes on, the old secret no longer signs.
    const after = await handOff(new Date(Date.now() + 120_000));
    expect(after.signatureValid).toBe(true);
    expect(verifies(secret!, after)).toBe(true);
    expect(verifies(oldSecret, after)).toBe(false);
    // A run of the admin command: a new Node process loading TypeScript, 5 s alone, up to 15 s on a loaded machine.
  }, 60_000);

  it('rotates an event endpoint through POST /public/admin/webhooks/rotate: the new secret once, the overlap, the audit log', async () => {
    const ROTATE = '/public/admin/webhooks/rotate';
    const oldSecret = shown.get(`events endpoint ${urls.withComment}`)!;
    // Not an admin key: refused, and nothing rotates.
    const publicKey = await api({ method: 'POST', path: ROTATE, key: tenant.key, body: { url: urls.withComment } });
    expect(publicKey.status).toBe(403);
    const bad = await api({ method: 'POST', path: ROTATE, key: tenant.adminKey, body: { url: 'chatbot', overlap_hours: 500 } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['overlap_hours', 'url']);
    const unknown = await api({ method: 'POST', path: ROTATE, key: tenant.adminKey, body: { url: `${outboxUrl}/events/elsewhere` } });
    expect(unknown.status).toBe(404);
    expect(unknown.text).not.toContain(outboxUrl);

    // A one-minute overlap.
    const started = Date.now();
    const rotated = await api({
      method: 'POST',
      path: ROTATE,
      key: tenant.adminKey,
      body: { url: urls.withComment, overlap_hours: 1 / 60 },
    });
    expect(rotated.status, rotated.text).toBe(201);
    const { secret, generation, previous_signs_until } = rotated.body;
    expect(generation).toBe(2);
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(oldSecret);
    expect(Date.parse(previous_signs_until) - started).toBeGreaterThanOrEqual(59_000);

    // The receiver verifies with the new secret, and during the overlap with the old one too.
    const during = (await answerAndDeliver()).got.get(urls.withComment)!;
    expect(verifies(secret, during)).toBe(true);
    expect(verifies(oldSecret, during)).toBe(true);
    const after = (await answerAndDeliver(new Date(Date.now() + 120_000))).got.get(urls.withComment)!;
    expect(verifies(secret, after)).toBe(true);
    expect(verifies(oldSecret, after)).toBe(false);

    // The audit log: who and what (generations, the end of the overlap), never the secret.
    const audit = await api({ path: '/public/admin/audit', key: tenant.adminKey });
    const entry = audit.body.data.find((e: { action: string }) => e.action === 'webhook.rotate');
    expect(entry).toMatchObject({
      actor: { keyId: expect.any(String) },
      changes: [
        { path: `webhooks[url=${urls.withComment}].signing.generation`, old: 1, new: 2 },
        { path: `webhooks[url=${urls.withComment}].signing.previous_signs_until`, old: null, new: previous_signs_until },
      ],
    });
    expect(audit.text).not.toContain(secret.slice(6));
    expect(audit.text).not.toContain(oldSecret.slice(6));
  });

  it('refuses to rotate an endpoint the tenant does not list', async () => {
    await expect(
      tenantService.rotateWebhookSecret(tenant.tenantId, { target: `${outboxUrl}/events/elsewhere`, overlapHours: 1 }),
    ).rejects.toThrow(/no webhook endpoint at that URL/);
  });
});
