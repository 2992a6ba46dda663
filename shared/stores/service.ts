import { nextId, db } from '../adapters/dynamodb.js';
import { getStore as findStore, insertStore, listStores as queryStores, updateStore, fromItem } from '../adapters/store-repository.js';
import { NotFoundError } from '../errors.js';
import { normaliseName } from '../keys.js';
import type { ListBody } from '../paging.js';
import type { CreateStoreInput, Store, StoreChanges, StoreFilters } from './schema.js';

export async function createStore(tenantId: number, input: CreateStoreInput): Promise<Store> {
  const id = await nextId(db(), tenantId, 'STORE');
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
  await insertStore(tenantId, store);
  return store;
}

export async function getStore(tenantId: number, id: number): Promise<Store> {
  const store = await findStore(tenantId, id);
  if (!store) throw new NotFoundError(`Store ${id} not found.`);
  return store;
}

export const editStore = (tenantId: number, id: number, changes: StoreChanges): Promise<Store> =>
  updateStore(tenantId, id, changes, new Date().toISOString());

/** Deactivating keeps the store readable; transactions can no longer use it. */
export const deactivateStore = (tenantId: number, id: number): Promise<Store> =>
  updateStore(tenantId, id, { status: 'inactive' }, new Date().toISOString());

export async function listStores(tenantId: number, filters: StoreFilters): Promise<ListBody<Store>> {
  const { items, nextCursor } = await queryStores(tenantId, filters);
  let data = items.map(fromItem);
  // An external code selects at most one store, so a name given with it is checked here rather than indexed.
  if (filters.store_id && filters.name) {
    const prefix = normaliseName(filters.name);
    data = data.filter((store) => normaliseName(store.trade_name).startsWith(prefix));
  }
  return { data, page: filters.page, limit: filters.limit, next_cursor: nextCursor };
}
