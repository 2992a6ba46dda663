import { ENV, requireEnvs } from '../../config.js';
import { configService } from '../../tenants/config-service.js';
import { auditLog } from '../audit-log.js';
import {
  findLogo,
  getTenant,
  putBrand,
  putDelivery,
  putSettings,
  raiseConfigVersion,
  removeUnlisted,
  renameTenant,
} from '../tenant-repository.js';
import { readVersionedSettings } from '../settings-repository.js';

// The configuration routes and pages read and write the tenant's configuration in the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

/** The tenant's configuration as GET and PUT /public/admin/config and the admin pages read and replace it, audited. */
export const { readConfig, replaceConfig } = configService(
  // Only what the service calls, named: the bundle then drops the rest of the repository (keys, users, signing).
  { getTenant, readVersionedSettings, raiseConfigVersion, renameTenant, putSettings, removeUnlisted, putDelivery, putBrand, findLogo },
  auditLog,
);
