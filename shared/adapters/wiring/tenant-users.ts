import { configured, ENV, requireEnvs } from '../../config.js';
import { tenantUsers } from '../../tenants/users.js';
import { auditLog } from '../audit-log.js';
import { cognitoSignInDirectory, userPoolIdOf } from '../cognito.js';
import { insertUser, listUsers as listUserRecords, updateUser as updateUserRecord } from '../tenant-repository.js';
import { findUserByName } from '../tenant-access-repository.js';

// The users routes write the tenant's users in the table and their sign-in users in the pool its issuer names.
requireEnvs(ENV.tableName);
const issuer = configured(ENV.userPoolIssuer);

/** The tenant's users: list, create (with a Cognito invitation), change and disable (shared/tenants/users.ts). */
export const { listUsers, createUser, updateUser } = tenantUsers(
  // Only what the service calls, named: the bundle then drops the rest of the repository (keys, configuration).
  { findUserByName, insertUser, listUsers: listUserRecords, updateUser: updateUserRecord },
  cognitoSignInDirectory(() => userPoolIdOf(issuer())),
  auditLog,
);
