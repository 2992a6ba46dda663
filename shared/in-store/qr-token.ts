import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The token of a store's QR code: the credential of its survey page (`/q/<token>`), printed and public, so it carries
 * no personal data and never expires; it names the tenant, store, journey, employee (0: the store's default) and the
 * tenant's QR generation it was signed under. Rotating the generation (POST /public/admin/qr/rotate) retires every
 * older token at once (410). 19 bytes, then a 128-bit HMAC-SHA256 tag under a key derived from the survey secret: 47
 * URL-safe characters.
 */
export interface QrCode {
  tenantId: number;
  storeId: number;
  journeyId: number;
  /** Absent: the store's default employee (1). */
  employeeId?: number | undefined;
  generation: number;
}

/** The first byte names the format: NEVER change or reuse it, printed posters decode by it. */
const FORMAT = 1;
const PAYLOAD_BYTES = 19;
const TAG_BYTES = 16;
export const QR_TOKEN_SHAPE = /^[\w-]{47}$/;

const qrKey = (secret: string) => createHmac('sha256', secret).update('qr-code/v1').digest();
const tagOf = (payload: Buffer, secret: string) => createHmac('sha256', qrKey(secret)).update(payload).digest().subarray(0, TAG_BYTES);

export function signQrCode(code: QrCode, secret: string): string {
  const payload = Buffer.alloc(PAYLOAD_BYTES);
  payload.writeUInt8(FORMAT, 0);
  payload.writeUInt32BE(code.tenantId, 1);
  payload.writeUInt32BE(code.storeId, 5);
  payload.writeUInt32BE(code.journeyId, 9);
  payload.writeUInt32BE(code.employeeId ?? 0, 13);
  payload.writeUInt16BE(code.generation, 17);
  return Buffer.concat([payload, tagOf(payload, secret)]).toString('base64url');
}

/** What a token names, if this deployment signed it; undefined for anything else (altered, made up). */
export function readQrCode(token: string, secret: string): QrCode | undefined {
  if (!QR_TOKEN_SHAPE.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length !== PAYLOAD_BYTES + TAG_BYTES || bytes.toString('base64url') !== token) return undefined;
  const payload = bytes.subarray(0, PAYLOAD_BYTES);
  if (!timingSafeEqual(bytes.subarray(PAYLOAD_BYTES), tagOf(payload, secret)) || payload.readUInt8(0) !== FORMAT) return undefined;
  const employeeId = payload.readUInt32BE(13);
  return {
    tenantId: payload.readUInt32BE(1),
    storeId: payload.readUInt32BE(5),
    journeyId: payload.readUInt32BE(9),
    ...(employeeId ? { employeeId } : {}),
    generation: payload.readUInt16BE(17),
  };
}

/** A short, stable name of a token that is not the token (the rate limit's key, the answered cookie's name). */
export const qrTokenHash = (token: string) => createHash('sha256').update(token).digest('base64url').slice(0, 22);
