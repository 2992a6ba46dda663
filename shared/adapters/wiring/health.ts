import { ENV, requireEnvs, wire } from '../../config.js';
import * as health from '../../health/service.js';
import { checkTable } from '../health-check.js';

/** GET /health: the table answers. */
export const checkHealth = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return health.healthCheck(checkTable);
});
