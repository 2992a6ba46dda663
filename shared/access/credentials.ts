import { createHash, randomBytes } from 'node:crypto';

export const KEY_SCOPES = ['public', 'chatbot', 'admin'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** The APIs a key is checked for, each by its own authorizer. */
export type KeyApi = 'public' | 'chatbot';

/**
 * The key scopes each API accepts: an admin key also calls the public API (what a public key may do, and the admin
 * routes, which refuse every other key).
 */
export const ACCEPTED_SCOPES: Record<KeyApi, readonly KeyScope[]> = { public: ['public', 'admin'], chatbot: ['chatbot'] };

/** The API a key of a scope was checked for (an admin key's is the public API). */
export const apiOfScope = (scope: string): KeyApi => (scope === 'chatbot' ? 'chatbot' : 'public');

/** The readable prefix of a new key of each scope. */
export const KEY_PREFIXES: Record<KeyScope, string> = { public: 'ssk', chatbot: 'sck', admin: 'sak' };

/** Longer than any key or token we issue; anything longer is rejected without a lookup. */
export const MAX_SECRET_LENGTH = 256;

/** A new secret: 256 random bits, base64url, with a readable prefix saying what it is. */
export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** Keys and tokens are high-entropy, so a plain SHA-256 is enough; only the hash is ever stored. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
