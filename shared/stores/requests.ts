import * as v from 'valibot';
import { entityId } from '../fields.js';
import { changesOf, externalCode, pagingQuery, text } from '../schema.js';
import { StoreStatus } from './schema.js';

/*
 * What clients send about stores. Apart from the record (./schema.ts), which the repositories parse every item with,
 * so that the functions that only read or create stores in passing (transactions) build none of these.
 */

/** The region a store is placed in (docs/regions.md): one of the configuration's; on an edit, null takes it out of any. */
const region = entityId;

export const CreateStoreBody = v.strictObject({
  trade_name: text(200),
  company_name: v.optional(text(200)),
  store_id: v.optional(externalCode),
  region: v.optional(region),
});
export type CreateStoreInput = v.InferOutput<typeof CreateStoreBody>;

export const UpdateStoreBody = changesOf({
  trade_name: v.optional(text(200)),
  company_name: v.optional(text(200)),
  status: v.optional(StoreStatus),
  region: v.optional(v.nullable(region)),
});
export type StoreChanges = v.InferOutput<typeof UpdateStoreBody>;

export const ListStoresQuery = v.strictObject({
  ...pagingQuery,
  status: v.optional(StoreStatus),
  name: v.optional(text(200)),
  store_id: v.optional(externalCode),
});
export type StoreFilters = v.InferOutput<typeof ListStoresQuery>;
