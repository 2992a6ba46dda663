import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A kiosk's device token: shown once when an admin registers the tablet, kept in the tablet's cookie, stored only as a
 * hash. It names the tenant and the kiosk (so one GetItem finds it, no scan) and carries 128 random bits: 4 bytes of
 * tenant, 8 of kiosk id, 16 of secret, 38 URL-safe characters.
 */
const TENANT_BYTES = 4;
const ID_BYTES = 8;
const SECRET_BYTES = 16;
const TOKEN_BYTES = TENANT_BYTES + ID_BYTES + SECRET_BYTES;
export const KIOSK_TOKEN_SHAPE = /^[\w-]{38}$/;

export interface KioskToken {
  tenantId: number;
  /** The kiosk's id: 16 hex digits. */
  id: string;
}

export function newKioskToken(tenantId: number): KioskToken & { token: string } {
  const bytes = Buffer.concat([Buffer.alloc(TENANT_BYTES), randomBytes(ID_BYTES + SECRET_BYTES)]);
  bytes.writeUInt32BE(tenantId, 0);
  return { token: bytes.toString('base64url'), ...readKioskToken(bytes.toString('base64url'))! };
}

/** What a token names, if it has a token's shape; whether it is the kiosk's is for its stored hash to say. */
export function readKioskToken(token: string): KioskToken | undefined {
  if (!KIOSK_TOKEN_SHAPE.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length !== TOKEN_BYTES || bytes.toString('base64url') !== token) return undefined;
  return { tenantId: bytes.readUInt32BE(0), id: bytes.subarray(TENANT_BYTES, TENANT_BYTES + ID_BYTES).toString('hex') };
}

export const kioskTokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Whether a token is the one whose hash was stored (in constant time). */
export const isKioskToken = (token: string, storedHash: string) => {
  const given = Buffer.from(kioskTokenHash(token));
  const stored = Buffer.from(storedHash);
  return given.length === stored.length && timingSafeEqual(given, stored);
};
