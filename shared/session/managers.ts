import * as v from 'valibot';
import { ValidationError } from '../errors.js';
import type { UserScope } from '../access/user-scope.js';
import { AddressUnavailableError } from '../access/tenant-users.js';
import type { UserDirectory } from './ports.js';

const Email = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.maxLength(254), v.email());

/**
 * A manager who signs in: the tenant user (named by their e-mail address, holding their scope, in the table) and
 * their Cognito user (bound to the tenant), invited with a temporary password they replace at first sign-in. The
 * sign-in comes first, as the users routes make it: an address that signs in to another tenant is refused with
 * nothing written (a tenant user it could never sign in as), and one whose tenant user then fails to be written is
 * made whole by the same call again (the invitation answers `exists`).
 */
export async function inviteManager(
  deps: { putTenantUser: (tenantId: number, name: string, scope: UserScope) => Promise<unknown>; directory: UserDirectory },
  manager: { tenantId: number; email: string; scope: UserScope; temporaryPassword?: string | undefined },
): Promise<{ email: string; invited: 'created' | 'exists' }> {
  const parsed = v.safeParse(Email, manager.email);
  if (!parsed.success) throw new ValidationError('Not an e-mail address.', [{ path: 'email', message: 'must be an e-mail address' }]);
  const email = parsed.output;
  const invited = await deps.directory.invite({ email, tenantId: manager.tenantId, temporaryPassword: manager.temporaryPassword });
  if (invited === 'elsewhere') throw new AddressUnavailableError();
  await deps.putTenantUser(manager.tenantId, email, manager.scope);
  return { email, invited };
}
