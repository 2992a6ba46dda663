import { tenantRepository } from '../tenant-repository.js';
import { ENV } from '../../config.js';
import { auditLog } from '../audit-log.js';
import { tenantService } from '../../tenants/service.js';
import { keyOfValue as findKeyOfValue, tenantKeys } from '../../tenants/keys.js';

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
} = tenantService(tenantRepository, {
  surveySecret: () => process.env[ENV.surveySecret],
  surveySecretName: ENV.surveySecret,
  audit: auditLog,
});

/**
 * The tenant's API keys as the admin API and the operator's command administer them: issue, list, revoke, rotate,
 * each written to the audit log (shared/tenants/keys.ts).
 */
export const { issueKey, listKeys, revokeKey, rotateKey } = tenantKeys(tenantRepository, auditLog);
export const keyOfValue = (value: string) => findKeyOfValue(tenantRepository, value);
