import * as v from 'valibot';

/**
 * The roles a tenant user may hold beside its store and group scope (USER_ROLES, beside the user record): `admin`, the
 * tenant admin, also changes the tenant's configuration, in the workspace and through the admin API; `member` (or none)
 * is a manager. The tenant file's `users[].role` is checked by this schema.
 */
/** A user's role: `admin` may also call the admin routes (the tenant-admin role); absent: a member. */
export const USER_ROLES = ['member', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const UserRoleSchema = v.picklist(USER_ROLES, `must be one of ${USER_ROLES.join(', ')}`);

/** Whether a user is one of the tenant's enabled admins: the one check the admin pages and the navigation make. */
export const isTenantAdmin = (user: { role?: UserRole | undefined; disabled_at?: string | null | undefined }): boolean =>
  user.role === 'admin' && !user.disabled_at;
