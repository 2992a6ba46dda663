import { ForbiddenError } from '../errors.js';
import type { UserRecord } from './ports.js';
import { isTenantAdmin } from './roles.js';

/**
 * What an admin route or page administers. `tenant`: everything tenant-wide (journeys, classes, groups, brand and
 * logos, locale, retention, case rules, webhooks and chat endpoints, their signing secrets and deliveries, API keys, the
 * audit log): a change there reaches every store. `users`: the tenant's users, which an admin user changes only within
 * their own scope and role (users.ts).
 */
export type AdminArea = 'tenant' | 'users';

/** Who asks: an API key with scope admin (tenant-wide by nature), or a user as stored (their role and scope). */
export type Principal = 'admin-key' | Pick<UserRecord, 'role' | 'scope' | 'disabled_at'>;

/** Why a principal may not administer an area: they are no admin, or an admin whose scope is some stores. */
export type AdminRefusal = 'not-admin' | 'not-every-store';

/**
 * The one rule of who administers what (docs/roles-and-scopes.md): an admin key, everything; a user with role admin,
 * the users whatever their scope, and the tenant-wide rest only when their scope is every store; anyone else, nothing.
 * Every admin route (the HTTP wrapper) and every admin page (its frame) asks it.
 */
export function adminRefusal(principal: Principal, area: AdminArea): AdminRefusal | undefined {
  if (principal === 'admin-key') return undefined;
  if (!isTenantAdmin(principal)) return 'not-admin';
  return area === 'tenant' && principal.scope !== 'all' ? 'not-every-store' : undefined;
}

/** Whether a key's scope is admin: its caller administers the tenant without a user. */
export const isAdminKey = (scope: string): boolean => scope === 'admin';

const REASONS: Record<AdminRefusal, string> = {
  'not-admin': 'This route needs an API key with scope admin, or the user token of a user with role admin.',
  'not-every-store':
    "The tenant's configuration, keys and secrets reach every store: they need an admin key or an admin user who sees every store, and this user sees some stores.",
};

/** The 403 of a tenant-wide admin route, as its contract documents it. */
export const NOT_TENANT_ADMIN = 'Neither an admin key nor the user token of an admin who sees every store';

/** A refusal by the rule: 403 on the admin routes, naming why and nothing of the tenant. */
export class AdminRefusedError extends ForbiddenError {
  constructor(readonly refusal: AdminRefusal) {
    super(REASONS[refusal]);
  }
}

/** Refuses a principal the rule refuses the area. */
export function requireAdmin(principal: Principal, area: AdminArea): void {
  const refusal = adminRefusal(principal, area);
  if (refusal) throw new AdminRefusedError(refusal);
}
