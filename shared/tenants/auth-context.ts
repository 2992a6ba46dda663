import * as v from 'valibot';
import { UnauthenticatedError } from '../errors.js';
import { KEY_SCOPES } from './credentials.js';

/**
 * What the authorizer hands to every handler. Unknown and revoked keys are let through as `authenticated: false`
 * so that the handler answers the one 401 problem body (API Gateway's own deny is a bare 403).
 */
export const AuthContext = v.variant('authenticated', [
  v.object({ authenticated: v.literal(true), tenantId: v.pipe(v.number(), v.integer(), v.minValue(1)), scope: v.string() }),
  // The key could not be checked (the table was unreachable): the handler checks it again itself, because API
  // Gateway caches this answer for the key and the table may be back by the next request.
  v.object({ authenticated: v.literal(false), recheck: v.optional(v.picklist(KEY_SCOPES)) }),
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
