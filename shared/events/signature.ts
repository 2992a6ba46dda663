import { createHash, createHmac } from 'node:crypto';

/**
 * Webhooks (event endpoints and the chatbot hand-off) are signed as the Standard Webhooks specification says: headers
 * `webhook-id`, `webhook-timestamp` (unix seconds) and `webhook-signature: v1,<base64 HMAC-SHA256>` over
 * `<id>.<timestamp>.<raw body>`, keyed by the base64-decoded part of a `whsec_` secret. During a rotation window the
 * header lists one signature per secret, space-separated, so that a receiver holding either verifies.
 */
export const WEBHOOK_ID_HEADER = 'webhook-id';
export const WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';

/** The chatbot hand-off's signing endpoint; an event endpoint's is `eventEndpoint(url)`. */
export const CHATBOT_ENDPOINT = 'chatbot';
/** An event endpoint is known by its URL: a new URL is a new destination, with a secret of its own. */
export const eventEndpoint = (url: string) => `events:${createHash('sha256').update(url).digest('base64url').slice(0, 22)}`;

/** The generations of one endpoint's secret: the one that signs, and the one before while its window lasts. */
export interface SigningGenerations {
  current: number;
  previous?: { generation: number; until: string } | undefined;
}
/**
 * How long a rotated-out secret goes on signing beside the new one: a day by default lets a receiver deploy the new
 * secret without losing a delivery; 0 is a hard cutover (a leaked secret).
 */
export const ROTATION_OVERLAP_HOURS = { default: 24, max: 168 } as const;

/** An endpoint whose secret was never rotated signs with generation 1. */
export const FIRST_GENERATION: SigningGenerations = { current: 1 };

/**
 * An endpoint's signing secret: 32 bytes derived from the deployment's survey secret, the tenant, the endpoint and the
 * generation, so that no secret is stored anywhere (the table, its backups and exports hold only generation numbers)
 * and every endpoint's differs. Rotating is raising the generation.
 */
export const webhookSecret = ({
  rootSecret,
  tenantId,
  endpoint,
  generation,
}: {
  rootSecret: string;
  tenantId: number;
  endpoint: string;
  generation: number;
}) => `whsec_${createHmac('sha256', rootSecret).update(`webhook-signing/${tenantId}/${endpoint}/${generation}`).digest('base64')}`;

/** The secrets that sign at `now`: the current one first, then the previous one until its window closes. */
export function signingSecrets({
  rootSecret,
  tenantId,
  endpoint,
  generations,
  now,
}: {
  rootSecret: string;
  tenantId: number;
  endpoint: string;
  generations: SigningGenerations | undefined;
  now: Date;
}): string[] {
  const { current, previous } = generations ?? FIRST_GENERATION;
  const live = previous && Date.parse(previous.until) > now.getTime() ? [previous.generation] : [];
  return [current, ...live].map((generation) => webhookSecret({ rootSecret, tenantId, endpoint, generation }));
}

const signature = (secret: string, content: string) =>
  `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(content)
    .digest('base64')}`;

/** The three headers of a webhook signed with each of `secrets` (its id must hold no dot: the spec's rule). */
export function webhookHeaders({
  secrets,
  id,
  body,
  now,
}: {
  secrets: string[];
  id: string;
  body: string;
  now: Date;
}): Record<string, string> {
  if (id.includes('.')) throw new Error('A webhook id may not contain a dot');
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    [WEBHOOK_ID_HEADER]: id,
    [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
    [WEBHOOK_SIGNATURE_HEADER]: secrets.map((secret) => signature(secret, `${id}.${timestamp}.${body}`)).join(' '),
  };
}
