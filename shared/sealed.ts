import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * What a client carries but may neither read nor alter (list cursors, the workspace's challenge and shown-once
 * cookies): a JSON value sealed for one context (the query a cursor belongs to, the tenant and page a cookie is for).
 */
export interface Sealer {
  seal(value: unknown, context: string): string;
  /** The value sealed for `context`; undefined for anything else (altered, forged, another context or purpose). */
  open(sealed: string, context: string): unknown;
}

const NONCE = 12;
const TAG = 16;
/** The longest sealed value opened: a cookie's or a cursor's, never a body's. */
const MAX_BYTES = 4096;

/**
 * AES-256-GCM under a key derived from the deployment's `secret` for one `purpose`, so that no two uses share a key
 * and a value sealed for one is refused by another; the context is the associated data. 12 bytes of nonce, the
 * ciphertext, 16 bytes of tag, base64url. A missing secret throws (the cold start's configuration), never reads as
 * a forged value.
 */
export function sealer(secret: () => string, purpose: string): Sealer {
  let derived: { from: string; key: Buffer } | undefined;
  const keyOf = () => {
    const from = secret();
    if (derived?.from !== from) derived = { from, key: createHmac('sha256', from).update(purpose).digest() };
    return derived.key;
  };
  return {
    seal(value, context) {
      const iv = randomBytes(NONCE);
      const cipher = createCipheriv('aes-256-gcm', keyOf(), iv).setAAD(Buffer.from(context));
      const sealed = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
    },
    open(sealed, context) {
      const key = keyOf();
      const bytes = Buffer.from(sealed, 'base64url');
      if (bytes.length <= NONCE + TAG || bytes.length > MAX_BYTES) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE)).setAAD(Buffer.from(context));
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG));
        const plain = Buffer.concat([decipher.update(bytes.subarray(NONCE, bytes.length - TAG)), decipher.final()]);
        return JSON.parse(plain.toString('utf8')) as unknown;
      } catch {
        return undefined;
      }
    },
  };
}
