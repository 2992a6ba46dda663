import * as v from 'valibot';
import { ValidationError } from '../errors.js';
import type { UserScope } from '../access/user-scope.js';
import type { UserDirectory } from './ports.js';

const Email = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.maxLength(254), v.email());

/**
 * A manager who signs in: the tenant user (named by their e-mail address, holding their scope, in the table) and
 * their Cognito user (bound to the tenant), invited with a temporary password they replace at first sign-in.
 */
export async function inviteManager(
  deps: { putTenantUser: (tenantId: number, name: string, scope: UserScope) => Promise<unknown>; directory: UserDirectory },
  manager: { tenantId: number; email: string; scope: UserScope; temporaryPassword?: string | undefined },
): Promise<{ email: string; invited: 'created' | 'exists' }> {
  const parsed = v.safeParse(Email, manager.email);
  if (!parsed.success) throw new ValidationError('Not an e-mail address.', [{ path: 'email', message: 'must be an e-mail address' }]);
  const email = parsed.output;
  await deps.putTenantUser(manager.tenantId, email, manager.scope);
  const invited = await deps.directory.invite({ email, tenantId: manager.tenantId, temporaryPassword: manager.temporaryPassword });
  return { email, invited };
}
