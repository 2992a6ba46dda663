import { ENV, requireEnvs } from '../../config.js';

// The admin routes read and write the tenant's configuration in the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

export { auditEntries, readConfig, replaceConfig } from './tenants.js';
