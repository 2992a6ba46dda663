import { tenantRepository } from '../tenant-repository.js';
import { insertTenant } from '../tenant-creation.js';
import { ENV } from '../../config.js';
import { auditLog } from '../audit-log.js';
import { tenantService } from '../../tenants/service.js';

export { tenantSettings } from './tenant-settings.js';

export const {
  createTenant,
  issueApiKey,
  authorizeKey,
  createUser,
  resolveUser,
  applyTenantConfig,
  rotateWebhookSecret,
  readConfig,
  replaceConfig,
  auditEntries,
  getTenant,
  listTenants,
} = tenantService(
  { ...tenantRepository, insertTenant },
  {
    surveySecret: () => process.env[ENV.surveySecret],
    surveySecretName: ENV.surveySecret,
    audit: auditLog,
  },
);

/** The tenant's API keys (issue, list, revoke, rotate), as the admin API administers them. */
export { issueKey, listKeys, revokeKey, rotateKey, keyOfValue } from './tenant-keys.js';
