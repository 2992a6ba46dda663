import * as v from 'valibot';
import { UnauthenticatedError } from '../errors.js';

/**
 * What the authorizer hands to every handler. Unknown and revoked keys are let through as `authenticated: false`
 * so that the handler answers the one 401 problem body (API Gateway's own deny is a bare 403).
 */
export const AuthContext = v.variant('authenticated', [
  v.object({ authenticated: v.literal(true), tenantId: v.pipe(v.number(), v.integer(), v.minValue(1)), scope: v.string() }),
  v.object({ authenticated: v.literal(false) }),
]);
export type AuthContext = v.InferOutput<typeof AuthContext>;

export function tenantFromContext(context: unknown): number {
  const result = v.safeParse(AuthContext, context);
  if (!result.success || !result.output.authenticated) throw new UnauthenticatedError();
  return result.output.tenantId;
}
