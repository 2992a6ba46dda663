import { adminUsersPage } from '../../workspace/admin-users-page.js';
import { spendShownOnce } from '../shown-once.js';
import { shownOnceSealer } from './sealers.js';
import { tenantSettings } from './tenant-settings.js';
import { createUser, listUsers, updateUser } from './tenant-users.js';

/**
 * The tenant admins' users page over the users service of `/public/admin/users` (which needs the user pool); a new
 * user's token shown once, sealed.
 */
export const { showUsers, saveUsers } = adminUsersPage({
  settings: tenantSettings,
  listUsers,
  createUser,
  updateUser,
  shownOnce: { sealer: shownOnceSealer, spend: spendShownOnce },
});
