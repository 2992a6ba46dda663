import { ENV, requireEnvs } from '../../config.js';
import { keyOfValue as findKeyOfValue, tenantKeys } from '../../tenants/keys.js';
import { auditLog } from '../audit-log.js';
import { tenantRepository } from '../tenant-repository.js';

// The keys routes and page read and write the tenant's keys in the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

/**
 * The tenant's API keys as the admin API, its page and the operator's command administer them: issue, list, revoke,
 * rotate, each written to the audit log (shared/tenants/keys.ts). Apart from the tenant service, which these never call.
 */
export const { issueKey, listKeys, revokeKey, rotateKey } = tenantKeys(tenantRepository, auditLog);
export const keyOfValue = (value: string) => findKeyOfValue(tenantRepository, value);
