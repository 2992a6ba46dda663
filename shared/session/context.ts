import * as v from 'valibot';
import type { SessionClaims } from './ports.js';

/**
 * What the session authorizer hands the workspace's pages: the tenant and user a verified session names, or nothing
 * (signed out). API Gateway may hand numbers as strings.
 */
const SessionContext = v.object({
  tenantId: v.pipe(v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,10}$/), v.transform(Number))]), v.integer(), v.minValue(1)),
  user: v.pipe(v.string(), v.minLength(1), v.maxLength(254)),
});

export function sessionFromContext(context: unknown): SessionClaims | undefined {
  const parsed = v.safeParse(SessionContext, context);
  return parsed.success ? parsed.output : undefined;
}
