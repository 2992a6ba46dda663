import { ENV, requireEnvs } from '../../config.js';
import { keyOfValue as findKeyOfValue, tenantKeys } from '../../tenants/keys.js';
import { auditLog } from '../audit-log.js';
import { findApiKeyById, insertApiKey, listApiKeys, markApiKeyRevoked, raiseConfigVersion, rotateApiKey } from '../tenant-repository.js';
import { findApiKey } from '../tenant-access-repository.js';

// The keys routes and page read and write the tenant's keys in the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

/**
 * The tenant's API keys as the admin API, its page and the operator's command administer them: issue, list, revoke,
 * rotate, each written to the audit log (shared/tenants/keys.ts). Apart from the tenant service, which these never call.
 */
export const { issueKey, listKeys, revokeKey, rotateKey } = tenantKeys(
  // Only what the service calls, named: the bundle then drops the rest of the repository (users, configuration).
  { insertApiKey, listApiKeys, findApiKeyById, markApiKeyRevoked, rotateApiKey, raiseConfigVersion },
  auditLog,
);
export const keyOfValue = (value: string) => findKeyOfValue({ findApiKey }, value);
