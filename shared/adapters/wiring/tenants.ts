import { readConfigVersion, readVersionedSettings, tenantRepository } from '../tenant-repository.js';
import { ENV } from '../../config.js';
import { auditLog } from '../audit-log.js';
import { tenantService } from '../../tenants/service.js';
import { versionedSettings } from '../../tenants/settings.js';

/** A tenant's journeys, classes, groups and delivery settings, kept per process while their version holds. */
export const tenantSettings = versionedSettings({ version: readConfigVersion, read: readVersionedSettings });

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
  replaceBrand,
  auditEntries,
  getTenant,
  listTenants,
} = tenantService(tenantRepository, {
  surveySecret: () => process.env[ENV.surveySecret],
  surveySecretName: ENV.surveySecret,
  audit: auditLog,
});
