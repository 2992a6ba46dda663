import * as v from 'valibot';
import { keys, normaliseName, padId } from '../keys.js';
import { Store, type StoreFilters } from '../stores/schema.js';
import { db, queryPage, type Page, type QuerySpec } from './dynamodb.js';
import { entityRepository } from './entity-repository.js';

export const stores = entityRepository<Store>({
  entity: 'STORE',
  parse: (item) => v.parse(Store, item),
  externalId: 'store_id',
  collection: true,
  derived: {
    status: (tenantId, id, status) => ({ gsi2pk: keys.byStatus(tenantId, 'STORE', status), gsi2sk: padId(id) }),
    trade_name: (tenantId, id, name) => ({ gsi3pk: keys.byName(tenantId, 'STORE'), gsi3sk: keys.nameSort(normaliseName(name), id) }),
    store_id: (tenantId, id, code) => ({ gsi4pk: code ? keys.byExternalId(tenantId, 'STORE', code) : undefined, gsi4sk: code ? padId(id) : undefined }),
  },
});

/** Each filter has its own index; the most selective one present is the key condition, the others filter. */
export function listStores(tenantId: number, filters: StoreFilters): Promise<Page> {
  const { status, name, store_id: storeId } = filters;
  const nameFilter = name ? [{ attribute: 'gsi3sk', beginsWith: normaliseName(name) }] : [];
  const statusFilter = status ? [{ attribute: 'status', equals: status }] : [];
  let spec: QuerySpec;
  if (storeId) spec = { index: 'gsi4', partition: keys.byExternalId(tenantId, 'STORE', storeId), filters: [...nameFilter, ...statusFilter] };
  else if (name) spec = { index: 'gsi3', partition: keys.byName(tenantId, 'STORE'), sortBeginsWith: normaliseName(name), filters: statusFilter };
  else if (status) spec = { index: 'gsi2', partition: keys.byStatus(tenantId, 'STORE', status) };
  else spec = { index: 'gsi1', partition: keys.collection(tenantId, 'STORE') };
  return queryPage(db(), spec, filters);
}
