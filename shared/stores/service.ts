import type { AuditActor } from '../audit/log.js';
import { NotFoundError } from '../errors.js';
import type { ListBody } from '../paging.js';
import type { StoreRepository } from './ports.js';
import type { StoreRegions } from './regions.js';
import type { Store } from './schema.js';
import type { CreateStoreInput, StoreChanges, StoreFilters } from './requests.js';

/**
 * Stores: created, read, edited, deactivated and listed through their repository; placed in a region (`region`) through
 * the configuration, where regions live (docs/regions.md). The transactions' stores never name one: no `regions`.
 */
export function storeService(stores: StoreRepository, regions?: StoreRegions) {
  const regionsOf = () => {
    if (!regions) throw new Error('This function places no store in a region.');
    return regions;
  };

  async function createStore(tenantId: number, input: CreateStoreInput, actor?: AuditActor): Promise<Store> {
    // An unknown region is refused before the store exists.
    if (input.region !== undefined) await regionsOf().check(tenantId, input.region);
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
    if (input.region !== undefined)
      await regionsOf().place(tenantId, { storeId: id, region: input.region, actor: actor ?? { operator: true } });
    return store;
  }

  async function getStore(tenantId: number, id: number): Promise<Store> {
    const store = await stores.get(tenantId, id);
    if (!store) throw new NotFoundError(`Store ${id} not found.`);
    return store;
  }

  async function editStore(
    tenantId: number,
    { id, changes: { region, ...changes }, actor }: { id: number; changes: StoreChanges; actor?: AuditActor },
  ): Promise<Store> {
    if (region === undefined) return stores.update(tenantId, id, { changes, now: new Date().toISOString() });
    if (region !== null) await regionsOf().check(tenantId, region);
    const store = Object.keys(changes).length
      ? await stores.update(tenantId, id, { changes, now: new Date().toISOString() })
      : await getStore(tenantId, id);
    await regionsOf().place(tenantId, { storeId: id, region, actor: actor ?? { operator: true } });
    return store;
  }

  /** Deactivating keeps the store readable; transactions can no longer use it. */
  const deactivateStore = (tenantId: number, id: number): Promise<Store> =>
    stores.update(tenantId, id, { changes: { status: 'inactive' }, now: new Date().toISOString() });

  async function listStores(tenantId: number, filters: StoreFilters): Promise<ListBody<Store>> {
    const { items, nextCursor } = await stores.list(tenantId, filters);
    return { data: items, page: filters.page, limit: filters.limit, next_cursor: nextCursor };
  }

  return { createStore, getStore, editStore, deactivateStore, listStores };
}

export type StoreService = ReturnType<typeof storeService>;
