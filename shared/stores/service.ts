import { nextId, db } from '../adapters/dynamodb.js';
import { listStores as queryStores, stores } from '../adapters/store-repository.js';
import { NotFoundError } from '../errors.js';
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
  await stores.insert(tenantId, store);
  return store;
}

export async function getStore(tenantId: number, id: number): Promise<Store> {
  const store = await stores.get(tenantId, id);
  if (!store) throw new NotFoundError(`Store ${id} not found.`);
  return store;
}

export const editStore = (tenantId: number, id: number, changes: StoreChanges): Promise<Store> =>
  stores.update(tenantId, id, changes, new Date().toISOString());

/** Deactivating keeps the store readable; transactions can no longer use it. */
export const deactivateStore = (tenantId: number, id: number): Promise<Store> =>
  stores.update(tenantId, id, { status: 'inactive' }, new Date().toISOString());

export async function listStores(tenantId: number, filters: StoreFilters): Promise<ListBody<Store>> {
  const { items, nextCursor } = await queryStores(tenantId, filters);
  return { data: items.map(stores.parse), page: filters.page, limit: filters.limit, next_cursor: nextCursor };
}
