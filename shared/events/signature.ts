import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed webhooks to a tenant's chatbot, in the scheme the well-known senders use (Stripe, Standard Webhooks):
 * header `x-survey-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. The receiver recomputes
 * the HMAC with its secret, compares in constant time and refuses a timestamp more than 5 minutes old.
 */
export const SIGNATURE_HEADER = 'x-survey-signature';
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * A tenant's webhook signing secret: derived from the deployment's survey secret, the tenant and the secret's
 * generation, so that it is never stored. Rotating it is raising the generation.
 */
export const webhookSecret = (surveySecret: string, tenantId: number, version: number) =>
  `whsec_${createHmac('sha256', surveySecret).update(`webhook/${tenantId}/${version}`).digest('base64url')}`;

const mac = (secret: string, timestamp: number, body: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

export const signatureHeader = (secret: string, body: string, now: Date) => {
  const timestamp = Math.floor(now.getTime() / 1000);
  return `t=${timestamp},v1=${mac(secret, timestamp, body)}`;
};

/** Whether a signature header is this secret's for this body, and recent. */
export function verifySignature(secret: string, body: string, header: string | undefined, now: Date): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((part) => part.split('=', 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || Math.abs(now.getTime() / 1000 - timestamp) > WEBHOOK_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(mac(secret, timestamp, body));
  const given = Buffer.from(parts.v1 ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
