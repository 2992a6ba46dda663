import { checkTable } from '../adapters/health-check.js';
import { healthCheck } from '../health/service.js';

export const checkHealth = healthCheck(checkTable);
