import * as v from 'valibot';
import { UnauthenticatedError } from '../errors.js';
import type { KeyApi } from './credentials.js';

/**
 * What the authorizer hands to every handler. Unknown and revoked keys are let through as `authenticated: false`
 * so that the handler answers the one 401 problem body (API Gateway's own deny is a bare 403).
 */
// API Gateway may hand the authorizer's context values to the function as strings ("true", "1", "42").
const yes = v.union([
  v.literal(true),
  v.pipe(
    v.picklist(['true', '1']),
    v.transform(() => true as const),
  ),
]);
const no = v.union([
  v.literal(false),
  v.pipe(
    v.picklist(['false', '0']),
    v.transform(() => false as const),
  ),
]);
const whole = v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,15}$/), v.transform(Number))]);
const tenantId = v.pipe(whole, v.integer(), v.minValue(1));
const version = v.pipe(whole, v.integer(), v.minValue(0));

export const AuthContext = v.union([
  // keyId: which of the tenant's keys made the request (the access log names it); absent in contexts cached before it was added.
  // checkedFor: the request the authorizer checked the key for; an answer API Gateway cached for another request is
  // checked again by the handler (shared/http/handler.ts), so that a revoked or expired key is refused at once.
  // version: the tenant's configuration version the key was checked at (every change of a key raises it), and
  // validUntil: when the key stops working (its expiry, or the end of its rotation's grace; absent: never by itself).
  // A cached answer is taken while the version holds and the clock is before validUntil; absent (an answer cached
  // before they came), the key is read again.
  v.object({
    authenticated: yes,
    tenantId,
    scope: v.string(),
    keyId: v.optional(v.string()),
    checkedFor: v.optional(v.string()),
    version: v.optional(version),
    validUntil: v.optional(v.string()),
  }),
  // The key could not be checked (the table was unreachable): the handler checks it again itself, because API
  // Gateway caches this answer for the key and the table may be back by the next request.
  v.object({ authenticated: no, recheck: v.optional(v.picklist(['public', 'chatbot'] satisfies KeyApi[])) }),
]);
export type AuthContext = v.InferOutput<typeof AuthContext>;

export function parseAuthContext(context: unknown): AuthContext {
  const result = v.safeParse(AuthContext, context);
  return result.success ? result.output : { authenticated: false };
}

export function tenantFromContext(context: unknown): number {
  const parsed = parseAuthContext(context);
  if (!parsed.authenticated) throw new UnauthenticatedError();
  return parsed.tenantId;
}
