import { adminJourneysPage } from '../../workspace/admin-journeys-page.js';
import { readConfig, replaceConfig } from './tenant-config.js';
import { tenantSettings } from './tenant-settings.js';

/** The tenant admins' journeys page over the configuration service of `PUT /public/admin/config`. */
export const { showJourneys } = adminJourneysPage({ readConfig, replaceConfig, settings: tenantSettings });
