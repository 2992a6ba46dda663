import { changeConfig } from '../../workspace/admin-config-form.js';
import { adminJourneysForm } from '../../workspace/admin-journeys-page.js';
import { readConfig, replaceConfig } from './tenant-config.js';
import { tenantSettings } from './tenant-settings.js';

/** The journey form's post over the configuration service of `PUT /public/admin/config`, checked by the tenant file's schema. */
export const { saveJourney } = adminJourneysForm({ readConfig, replaceConfig, settings: tenantSettings }, changeConfig);
