import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { eventFor, tenantEvent } from '../../shared/events/events.js';
import { CHATBOT_ENDPOINT, eventEndpoint, signingSecrets, webhookHeaders, webhookSecret } from '../../shared/events/signature.js';

/**
 * The Standard Webhooks scheme, checked with the specification's own library as a receiver would use it: a secret
 * per endpoint, several signatures during a rotation window, and what an event endpoint receives of an answer.
 */
const ROOT = 'unit-survey-secret';
const A = eventEndpoint('https://hooks.example.com/a');
const B = eventEndpoint('https://hooks.example.com/b');
const verifies = (secret: string, body: string, headers: Record<string, string>) => {
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return false;
  }
};

describe('webhook signatures', () => {
  it('are whsec_ secrets of 32 bytes, one per tenant, endpoint and generation', () => {
    const secrets = [
      webhookSecret({ rootSecret: ROOT, tenantId: 1, endpoint: A, generation: 1 }),
      webhookSecret({ rootSecret: ROOT, tenantId: 1, endpoint: A, generation: 2 }),
      webhookSecret({ rootSecret: ROOT, tenantId: 1, endpoint: B, generation: 1 }),
      webhookSecret({ rootSecret: ROOT, tenantId: 2, endpoint: A, generation: 1 }),
      webhookSecret({ rootSecret: ROOT, tenantId: 1, endpoint: CHATBOT_ENDPOINT, generation: 1 }),
    ];
    expect(new Set(secrets).size).toBe(secrets.length);
    for (const secret of secrets) expect(Buffer.from(secret.replace(/^whsec_/, ''), 'base64')).toHaveLength(32);
    expect(secrets[0]).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  });

  it("verify with the library under the endpoint's secret only", () => {
    const body = JSON.stringify({ id: 'evt_1', type: 'survey.failed', data: {} });
    const headers = webhookHeaders({
      secrets: [webhookSecret({ rootSecret: ROOT, tenantId: 1, endpoint: A, generation: 1 })],
      id: 'evt_1',
      body,
      now: new Date(),
    });
    expect(Object.keys(headers).sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifies(webhookSecret({ rootSecret: ROOT, tenantId: 1, endpoint: A, generation: 1 }), body, headers)).toBe(true);
    // Another endpoint of the same tenant, the chatbot hand-off's secret, another tenant: none can have signed it.
    expect(verifies(webhookSecret({ rootSecret: ROOT, tenantId: 1, endpoint: B, generation: 1 }), body, headers)).toBe(false);
    expect(verifies(webhookSecret({ rootSecret: ROOT, tenantId: 1, endpoint: CHATBOT_ENDPOINT, generation: 1 }), body, headers)).toBe(
      false,
    );
    expect(verifies(webhookSecret({ rootSecret: ROOT, tenantId: 2, endpoint: A, generation: 1 }), body, headers)).toBe(false);
    // A body changed by one byte, or an old timestamp, fails.
    expect(
      verifies(webhookSecret({ rootSecret: ROOT, tenantId: 1, endpoint: A, generation: 1 }), body.replace('evt_1', 'evt_2'), headers),
    ).toBe(false);
    const old = webhookHeaders({
      secrets: [webhookSecret({ rootSecret: ROOT, tenantId: 1, endpoint: A, generation: 1 })],
      id: 'evt_1',
      body,
      now: new Date(Date.now() - 301_000),
    });
    expect(verifies(webhookSecret({ rootSecret: ROOT, tenantId: 1, endpoint: A, generation: 1 }), body, old)).toBe(false);
  });

  it('refuse an id holding a dot, as the specification requires', () => {
    expect(() => webhookHeaders({ secrets: ['whsec_AAAA'], id: '1.2.3', body: '{}', now: new Date() })).toThrow(/dot/);
  });

  it('carry the new and the old signature during a rotation window, then the new one only', () => {
    const now = new Date();
    const rotated = { current: 2, previous: { generation: 1, until: new Date(now.getTime() + 3_600_000).toISOString() } };
    const [newSecret, oldSecret] = [
      webhookSecret({ rootSecret: ROOT, tenantId: 1, endpoint: A, generation: 2 }),
      webhookSecret({ rootSecret: ROOT, tenantId: 1, endpoint: A, generation: 1 }),
    ];
    const body = '{"id":"evt_2"}';

    const during = webhookHeaders({
      secrets: signingSecrets({ rootSecret: ROOT, tenantId: 1, endpoint: A, generations: rotated, now }),
      id: 'evt_2',
      body,
      now,
    });
    expect(during['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifies(newSecret, body, during)).toBe(true);
    expect(verifies(oldSecret, body, during)).toBe(true);

    const later = new Date(Date.parse(rotated.previous.until) + 1000);
    expect(signingSecrets({ rootSecret: ROOT, tenantId: 1, endpoint: A, generations: rotated, now: later })).toEqual([newSecret]);
    // Timestamped now, so that only the window (not the receiver's tolerance) decides.
    const after = webhookHeaders({
      secrets: signingSecrets({ rootSecret: ROOT, tenantId: 1, endpoint: A, generations: rotated, now: later }),
      id: 'evt_2',
      body,
      now,
    });
    expect(verifies(newSecret, body, after)).toBe(true);
    expect(verifies(oldSecret, body, after)).toBe(false);

    // Never rotated: generation 1.
    expect(signingSecrets({ rootSecret: ROOT, tenantId: 1, endpoint: A, generations: undefined, now })).toEqual([oldSecret]);
  });
});

describe('what an event endpoint receives', () => {
  const answered = tenantEvent(1, {
    type: 'survey.answered',
    subject: '9/1',
    data: { transaction_id: 9, score: 3, comment: 'meu cpf é 123.456.789-09' },
    at: new Date(),
  });

  it("drops the answer's comment unless the endpoint opted in", () => {
    expect(eventFor(answered, {}).data).toEqual({ transaction_id: 9, score: 3 });
    expect(eventFor(answered, { includeComment: false }).data).not.toHaveProperty('comment');
    expect(eventFor(answered, { includeComment: true })).toEqual(answered);
    // The same event either way: same id, for the receiver's deduplication.
    expect(eventFor(answered, {}).id).toBe(answered.id);
  });
});
