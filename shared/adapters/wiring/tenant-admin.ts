import { ENV, requireEnvs } from '../../config.js';
import { tenantKeys } from '../../tenants/keys.js';
import { auditLog } from '../audit-log.js';
import { tenantRepository } from '../tenant-repository.js';

// The admin routes read and write the tenant's configuration in the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

export { auditEntries, readConfig, replaceConfig, rotateWebhookSecret } from './tenants.js';

/** The tenant's API keys: issue, list, revoke, rotate (shared/tenants/keys.ts). */
export const { issueKey, listKeys, revokeKey, rotateKey } = tenantKeys(tenantRepository, auditLog);
