import { tenantRepository } from '../tenant-repository.js';
import { ENV } from '../../config.js';
import { auditLog } from '../audit-log.js';
import { tenantService } from '../../tenants/service.js';

export { tenantSettings } from './tenant-settings.js';

export const {
  createTenant,
  issueApiKey,
  revokeApiKey,
  listApiKeys,
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
