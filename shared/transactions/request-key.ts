import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { TransactionCommand } from './requests.js';

/**
 * The key a transaction request is known by: its request id, its idempotency key and the key of the item it
 * creates. A transaction that carries its own external id gets a key derived from that id and its journey, so
 * resending it (or a redelivered queue message) lands on the same item and creates nothing new; one without gets
 * a random key. Send the same journey reference (id or slug) when resending.
 */
export function requestKeyFor(command: Pick<TransactionCommand, 'externalId' | 'journey'>): string {
  if (command.externalId === undefined) return randomUUID();
  const digest = createHash('sha256')
    .update(`${command.journey.id ?? ''}\u0000${command.journey.slug ?? ''}\u0000${command.externalId}`)
    .digest('base64url');
  return `tx-${digest.slice(0, 32)}`;
}

const REQUEST_KEY_PATTERN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|tx-[\w-]{32})$/;

/** What a request id looks like on the wire: a request key, a dot, and its tag. */
export const REQUEST_ID_SHAPE = /^[\w.-]{1,100}$/;
const TAG_LENGTH = 22;

const tagOf = (tenantId: number, requestKey: string, secret: string) =>
  createHmac('sha256', secret).update(`${tenantId}:${requestKey}`).digest('base64url').slice(0, TAG_LENGTH);

/**
 * The request id a client is given (x-request-id): the request key and a MAC that binds it to the tenant. An id this
 * tenant was never given (another tenant's, made up, or the id of a refused request) fails the MAC and is told apart
 * from one still on its way, without a write on the accepting path.
 */
export function publicRequestId(tenantId: number, requestKey: string, secret: string): string {
  return `${requestKey}.${tagOf(tenantId, requestKey, secret)}`;
}

/** The request key behind a request id this tenant was given; undefined for any other. */
export function requestKeyOf(tenantId: number, requestId: string, secret: string): string | undefined {
  const dot = requestId.lastIndexOf('.');
  const key = requestId.slice(0, dot);
  const tag = Buffer.from(requestId.slice(dot + 1));
  if (dot < 0 || !REQUEST_KEY_PATTERN.test(key) || tag.length !== TAG_LENGTH) return undefined;
  return timingSafeEqual(tag, Buffer.from(tagOf(tenantId, key, secret))) ? key : undefined;
}

/** How many ids a request key may probe before giving up (a second is needed about once in 10^9 transactions). */
export const MAX_ID_PROBES = 4;

/**
 * The transaction id a request key maps to: 48 bits of its SHA-256, so that the key alone finds its transaction
 * and the write that creates it is conditional on that one item. Two keys that collide (odds about n / 2^48)
 * probe on: the stored item names its key.
 */
export function transactionIdFor(requestKey: string, probe = 0): number {
  const digest = createHash('sha256')
    .update(probe ? `${requestKey}#${probe}` : requestKey)
    .digest();
  return digest.readUIntBE(0, 6) || 1;
}
