import { ENV, requireEnvs, wire } from '../../config.js';
import * as stores from '../../stores/service.js';
import { storeRepository } from '../store-repository.js';

/** The stores routes (and the stores a transaction's unknown external id creates). */
export const storeService = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return stores.storeService(storeRepository);
});
