import { ENV, requireEnvs } from '../../config.js';
import { configService } from '../../tenants/config-service.js';
import { auditLog } from '../audit-log.js';
import { tenantRepository } from '../tenant-repository.js';

// The configuration routes and pages read and write the tenant's configuration in the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

/** The tenant's configuration as GET and PUT /public/admin/config and the admin pages read and replace it, audited. */
export const { readConfig, replaceConfig } = configService(tenantRepository, auditLog);
