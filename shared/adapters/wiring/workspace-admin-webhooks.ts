import { adminWebhooksPage } from '../../workspace/admin-webhooks-page.js';
import { readConfig, replaceConfig } from './tenant-config.js';
import { tenantSettings } from './tenant-settings.js';

/** The tenant admins' event endpoints page over the configuration service of `PUT /public/admin/config`. */
export const { showWebhooks } = adminWebhooksPage({ readConfig, replaceConfig, settings: tenantSettings });
