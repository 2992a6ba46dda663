import { configured, ENV, requireEnvs } from '../../config.js';
import { tenantUsers } from '../../tenants/users.js';
import { auditLog } from '../audit-log.js';
import { cognitoSignInDirectory, userPoolIdOf } from '../cognito.js';
import { tenantRepository } from '../tenant-repository.js';

// The users routes write the tenant's users in the table and their sign-in users in the pool its issuer names.
requireEnvs(ENV.tableName);
const issuer = configured(ENV.userPoolIssuer);

/** The tenant's users: list, create (with a Cognito invitation), change and disable (shared/tenants/users.ts). */
export const { listUsers, createUser, updateUser } = tenantUsers(
  tenantRepository,
  cognitoSignInDirectory(() => userPoolIdOf(issuer())),
  auditLog,
);
