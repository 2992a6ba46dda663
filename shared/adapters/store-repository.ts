import * as v from 'valibot';
import { keys } from '../keys.js';
import { normaliseName } from '../text.js';
import { inIndex, indexAttributes } from '../table.js';
import { Store } from '../stores/schema.js';
import type { StoreFilters } from '../stores/requests.js';
import type { StoreRepository } from '../stores/ports.js';
import type { UserScope } from '../access/user-scope.js';
import { db, nextId, queryPage, type Page, type QuerySpec } from './dynamodb.js';
import { entityRepository, exactIndex } from './entity-repository.js';

export const stores = entityRepository<Store>({
  entity: 'STORE',
  parse: (item) => v.parse(Store, item),
  externalId: 'store_id',
  collection: true,
  derived: {
    status: exactIndex('gsi2', 'STORE', 'status'),
    trade_name: (tenantId, id, name) => inIndex('gsi3', keys.byName(tenantId, 'STORE'), keys.nameSort(normaliseName(name), id)),
    store_id: exactIndex('gsi4', 'STORE', 'externalId'),
  },
});

/** Each filter has its own index; the most selective one present is the key condition, the others filter. */
function queryStores(tenantId: number, filters: StoreFilters): Promise<Page> {
  const { status, name, store_id: storeId } = filters;
  const nameFilter = name ? [{ attribute: indexAttributes('gsi3').sortKey, beginsWith: normaliseName(name) }] : [];
  const statusFilter = status ? [{ attribute: 'status', equals: status }] : [];
  let spec: QuerySpec;
  if (storeId)
    spec = { index: 'gsi4', partition: keys.byExternalId(tenantId, 'STORE', storeId), filters: [...nameFilter, ...statusFilter] };
  else if (name)
    spec = { index: 'gsi3', partition: keys.byName(tenantId, 'STORE'), sortBeginsWith: normaliseName(name), filters: statusFilter };
  else if (status) spec = { index: 'gsi2', partition: keys.byStatus(tenantId, 'STORE', status) };
  else spec = { index: 'gsi1', partition: keys.collection(tenantId, 'STORE') };
  return queryPage(db(), spec, filters);
}

export const storeRepository: StoreRepository = {
  ...stores,
  nextId: (tenantId) => nextId(db(), tenantId, { entity: 'STORE' }),
  async list(tenantId, filters) {
    const { items, nextCursor } = await queryStores(tenantId, filters);
    return { items: items.map(stores.parse), nextCursor };
  },
};

/** The trade names of a tenant's stores by id (the pages' names of stores). */
export const storeTradeNames = async (tenantId: number, ids: number[]): Promise<Map<number, string>> =>
  new Map((ids.length ? await stores.getMany(tenantId, ids) : []).map((store) => [store.id, store.trade_name]));

/**
 * The stores a user may choose from by name (the pages' store filters): their scope's, or every store of the tenant
 * for a user who sees them all; undefined when there are more than `most` (one bounded read either way).
 */
export async function storeChoices(tenantId: number, scope: UserScope, most: number): Promise<Map<number, string> | undefined> {
  if (scope !== 'all') return scope.stores.length > most ? undefined : storeTradeNames(tenantId, scope.stores);
  const { items, nextCursor } = await storeRepository.list(tenantId, { limit: most, page: 1 });
  return nextCursor ? undefined : new Map(items.map((store) => [store.id, store.trade_name]));
}
