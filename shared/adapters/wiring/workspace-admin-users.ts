import { adminUsersPage } from '../../workspace/admin-users-page.js';
import { tenantSettings } from './tenant-settings.js';
import { createUser, listUsers, updateUser } from './tenant-users.js';

/** The tenant admins' users page over the users service of `/public/admin/users` (which needs the user pool). */
export const { showUsers, saveUsers } = adminUsersPage({ settings: tenantSettings, listUsers, createUser, updateUser });
