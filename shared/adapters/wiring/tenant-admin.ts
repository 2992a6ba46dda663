import { ENV, requireEnvs } from '../../config.js';

// The rotate route reads and writes the tenant's webhook signing in the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

/**
 * The webhook secrets' rotation (the tenant service). The other admin routes wire only what they call: the configuration
 * (tenant-config.ts), the audit log (tenant-audit.ts), the API keys (tenant-keys.ts), the users (tenant-users.ts).
 */
export { rotateWebhookSecret } from './tenants.js';
