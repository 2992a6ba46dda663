import { ENV, requireEnvs, wire } from '../../config.js';
import { storeRegions } from '../../stores/regions.js';
import * as stores from '../../stores/service.js';
import { storeRepository } from '../store-repository.js';
import { configService } from './tenants.js';

/** The stores routes (and the stores a transaction's unknown external id creates). */
export const storeService = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return stores.storeService(storeRepository);
});

/** The stores API's create and edit: a store's `region` is placed through the configuration service (docs/regions.md). */
export const storeEdits = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return stores.storeService(storeRepository, storeRegions(configService));
});
