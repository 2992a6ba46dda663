import { changeConfig } from '../../workspace/admin-config-form.js';
import { adminWebhooksForm } from '../../workspace/admin-webhooks-page.js';
import { readConfig, replaceConfig } from './tenant-config.js';
import { tenantSettings } from './tenant-settings.js';

/** The event endpoints form's post over the configuration service of `PUT /public/admin/config`, checked by the tenant file's schema. */
export const { saveWebhooks } = adminWebhooksForm({ readConfig, replaceConfig, settings: tenantSettings }, changeConfig);
