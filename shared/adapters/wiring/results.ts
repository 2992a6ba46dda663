import { ENV, requireEnvs } from '../../config.js';
import { resultsService } from '../../results/service.js';
import { employees } from '../employee-repository.js';
import { resultCounters } from '../result-counters.js';
import { stores } from '../store-repository.js';
import { tenantSettings } from './tenant-settings.js';

requireEnvs(ENV.tableName);

/** Results: the counters, the tenant's journeys and classes, and the names of stores and employees. */
export const { report } = resultsService({ counters: resultCounters, settings: tenantSettings, stores, employees });
