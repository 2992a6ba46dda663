import { ENV, requireEnvs } from '../../config.js';

// The admin routes read and write the tenant's configuration in the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

/** The configuration, the audit log, the webhook secrets and the API keys (issue, list, revoke, rotate: shared/tenants/keys.ts). */
export { auditEntries, readConfig, replaceConfig, rotateWebhookSecret, issueKey, listKeys, revokeKey, rotateKey } from './tenants.js';
