import { ENV, requireEnvs } from '../../config.js';
import { checkTable } from '../health-check.js';
import { healthCheck } from '../../health/service.js';

// The functions this module serves read the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

export const checkHealth = healthCheck(checkTable);
