import { storeRepository } from '../adapters/store-repository.js';
import { storeService } from '../stores/service.js';

export const { createStore, getStore, editStore, deactivateStore, listStores } = storeService(storeRepository);
