import { readSettings, tenantRepository } from '../adapters/tenant-repository.js';
import { ENV } from '../config.js';
import { tenantService } from '../tenants/service.js';
import { cachedSettings } from '../tenants/settings.js';

/** A tenant's journeys, classes, groups and delivery settings, cached per process. */
export const tenantSettings = cachedSettings(readSettings);

export const {
  createTenant,
  issueApiKey,
  revokeApiKey,
  listApiKeys,
  authorizeKey,
  createUser,
  resolveUser,
  readAsUser,
  applyTenantConfig,
  getTenant,
  listTenants,
} = tenantService(tenantRepository, { surveySecret: process.env[ENV.surveySecret], surveySecretName: ENV.surveySecret });
