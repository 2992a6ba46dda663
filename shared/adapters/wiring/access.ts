import { configured, ENV, requireEnvs, wire } from '../../config.js';
import { logger } from '../../logger.js';
import * as keys from '../../access/api-keys.js';
import * as access from '../../access/tenant-access.js';
import * as users from '../../access/tenant-users.js';
import * as keysPage from '../../workspace/admin-keys-page.js';
import * as usersPage from '../../workspace/admin-users-page.js';
import { storeChoices, storeTradeNames } from '../store-repository.js';
import {
  findApiKey,
  findApiKeyById,
  findUserByName,
  insertApiKey,
  insertUser,
  listApiKeys,
  listUsers,
  markApiKeyRevoked,
  rotateApiKey,
  tenantAccessRepository,
  updateUser,
} from '../access-repository.js';
import { auditLog } from '../audit-log.js';
import { cognitoSignInDirectory, userPoolIdOf } from '../cognito.js';
import { caseAlerts } from '../case-alerts.js';
import { invitations } from '../../access/invitation.js';
import { SIGN_IN_PATH } from '../../session/paths.js';
import { raiseConfigVersion } from '../tenant-repository.js';
import { shownOnce, tenantSettings } from './tenants.js';

/**
 * The checks of API keys and user tokens, for the authorizers and the HTTP wrapper: no tenant administration (no
 * variable of its own; their bundles drop the compositions below).
 */
export const tenantAccess = /* @__PURE__ */ wire(() =>
  access.tenantAccess(tenantAccessRepository, {
    onUseNotRecorded: (error) =>
      logger.warn("A key's last use could not be recorded", { error: error instanceof Error ? error.name : 'unknown' }),
  }),
);

/**
 * The tenant's API keys as the admin API, its page and the operator's command administer them: issue, list, revoke,
 * rotate, each written to the audit log (shared/access/api-keys.ts).
 */
export const apiKeys = /* @__PURE__ */ wire(() => {
  // The keys routes and page read and write the tenant's keys in the table.
  requireEnvs(ENV.tableName);
  return keys.apiKeys(
    // Only what the service calls, named: the bundle then drops the rest of the repositories (users, configuration).
    { insertApiKey, listApiKeys, findApiKeyById, markApiKeyRevoked, rotateApiKey, raiseConfigVersion },
    auditLog,
  );
});

/** The key a value names, if any (the operator's command). */
export const keyOfValue = (value: string) => keys.keyOfValue({ findApiKey }, value);

/**
 * The tenant's users: list, create (a Cognito sign-in, its invitation e-mailed through SES as the case alerts are),
 * change and disable (shared/access/tenant-users.ts).
 */
export const tenantUsers = /* @__PURE__ */ wire(() => {
  // The users routes write the tenant's users in the table and their sign-in users in the pool its issuer names.
  requireEnvs(ENV.tableName);
  const issuer = configured(ENV.userPoolIssuer);
  return users.tenantUsers({
    users: { findUserByName, insertUser, listUsers, updateUser },
    directory: cognitoSignInDirectory(() => userPoolIdOf(issuer())),
    audit: auditLog,
    invitations: invitations({
      settings: tenantSettings,
      email: caseAlerts.email,
      // Given to the functions that send (infra/grants.ts); read when a link is made, as the case alerts read it.
      baseUrl: () => process.env[ENV.surveyBaseUrl] ?? '',
      signInPath: SIGN_IN_PATH,
    }),
  });
});

/** The tenant admins' keys page over the keys service of `/public/admin/keys`; a new key shown once, sealed. */
export const adminKeysPage = /* @__PURE__ */ wire(() => keysPage.adminKeysPage({ settings: tenantSettings, ...apiKeys, shownOnce }));

/**
 * The tenant admins' users page over the users service of `/public/admin/users` (which needs the user pool); a new
 * user's token shown once, sealed.
 */
export const adminUsersPage = /* @__PURE__ */ wire(() =>
  usersPage.adminUsersPage({
    settings: tenantSettings,
    ...tenantUsers,
    shownOnce,
    groups: async (tenantId) => (await tenantSettings(tenantId)).groups,
    storeNames: storeTradeNames,
    storeChoices,
  }),
);
