import { NotFoundError } from '../errors.js';
import type { ListBody } from '../paging.js';
import type { StoreRepository } from './ports.js';
import type { Store } from './schema.js';
import type { CreateStoreInput, StoreChanges, StoreFilters } from './requests.js';

/** Stores: created, read, edited, deactivated and listed through their repository. */
export function storeService(stores: StoreRepository) {
  async function createStore(tenantId: number, input: CreateStoreInput): Promise<Store> {
    const id = await stores.nextId(tenantId);
    const now = new Date().toISOString();
    const store: Store = {
      id,
      store_id: input.store_id ?? null,
      trade_name: input.trade_name,
      company_name: input.company_name ?? null,
      status: 'active',
      created_at: now,
      updated_at: now,
    };
    await stores.insert(tenantId, store);
    return store;
  }

  async function getStore(tenantId: number, id: number): Promise<Store> {
    const store = await stores.get(tenantId, id);
    if (!store) throw new NotFoundError(`Store ${id} not found.`);
    return store;
  }

  const editStore = (tenantId: number, id: number, changes: StoreChanges): Promise<Store> =>
    stores.update(tenantId, id, changes, new Date().toISOString());

  /** Deactivating keeps the store readable; transactions can no longer use it. */
  const deactivateStore = (tenantId: number, id: number): Promise<Store> =>
    stores.update(tenantId, id, { status: 'inactive' }, new Date().toISOString());

  async function listStores(tenantId: number, filters: StoreFilters): Promise<ListBody<Store>> {
    const { items, nextCursor } = await stores.list(tenantId, filters);
    return { data: items, page: filters.page, limit: filters.limit, next_cursor: nextCursor };
  }

  return { createStore, getStore, editStore, deactivateStore, listStores };
}

export type StoreService = ReturnType<typeof storeService>;
