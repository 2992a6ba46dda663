import * as v from 'valibot';

/**
 * The roles a tenant user may hold beside its store and group scope: `admin`, the tenant admin, also changes the
 * tenant's configuration in the workspace (issue 34). A user without a role is a manager. Apart from the schemas so
 * that the access part (the authorizers' bundle) reads users without the tenant file's rules.
 */
export const USER_ROLES = ['admin'] as const;
export const UserRole = v.picklist(USER_ROLES, `must be one of ${USER_ROLES.join(', ')}`);
export type UserRole = v.InferOutput<typeof UserRole>;

/** Whether a user is one of the tenant's admins: the one check the admin pages make. */
export const isTenantAdmin = (user: { role?: UserRole | undefined }): boolean => user.role === 'admin';
