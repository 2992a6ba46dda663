import { ENV, requireEnvs } from '../../config.js';
import { storeRepository } from '../store-repository.js';
import { storeService } from '../../stores/service.js';

// The functions this module serves read the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

export const { createStore, getStore, editStore, deactivateStore, listStores } = storeService(storeRepository);
