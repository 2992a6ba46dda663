import { ENV, requireEnvs } from '../../config.js';
import { adminJourneysPage } from '../../workspace/admin-journeys-page.js';
import { adminWebhooksPage } from '../../workspace/admin-webhooks-page.js';
import { adminKeysPage } from '../../workspace/admin-keys-page.js';
import { issueKey, listKeys, revokeKey, rotateKey } from './tenant-admin.js';
import { readConfig, replaceConfig } from './tenants.js';
import { tenantSettings } from './tenant-settings.js';

// The admin pages read and write the tenant's configuration in the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

const ports = { readConfig, replaceConfig, settings: tenantSettings };

/** The tenant admins' pages over the configuration service of `PUT /public/admin/config` and the keys service of `/public/admin/keys`. */
export const { showJourneys, saveJourney } = adminJourneysPage(ports);
export const { showWebhooks, saveWebhooks } = adminWebhooksPage(ports);
export const { showKeys, saveKeys } = adminKeysPage({ settings: tenantSettings, issueKey, listKeys, revokeKey, rotateKey });
