import { readSettings, tenantRepository } from '../tenant-repository.js';
import { ENV } from '../../config.js';
import { tenantService } from '../../tenants/service.js';
import { cachedSettings } from '../../tenants/settings.js';
import { webhookSecret } from '../../events/signature.js';

const surveySecret = process.env[ENV.surveySecret];

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
  resolveSessionUser,
  readAsUser,
  applyTenantConfig,
  rotateWebhookSecret,
  getTenant,
  listTenants,
} = tenantService(tenantRepository, {
  webhookSecret: surveySecret ? (tenantId, endpoint, generation) => webhookSecret(surveySecret, tenantId, endpoint, generation) : undefined,
  surveySecretName: ENV.surveySecret,
});
