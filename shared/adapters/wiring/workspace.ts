import { ENV, requireEnvs } from '../../config.js';
import { resultsPage } from '../../workspace/results-page.js';
import { report } from './results.js';
import { tenantSettings } from './tenant-settings.js';

requireEnvs(ENV.tableName);

/** The workspace's results page over the results service. */
export const showResults = resultsPage({ settings: tenantSettings, report });
