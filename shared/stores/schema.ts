import * as v from 'valibot';
import { changesOf, externalCode, pagingQuery, text, timestamps } from '../schema.js';

export const StoreStatus = v.picklist(['active', 'inactive'], 'must be active or inactive');

/** The stored resource, as the API returns it. Items read back from the table are parsed with it. */
export const Store = v.object({
  id: v.number(),
  store_id: v.nullable(v.string()),
  trade_name: v.string(),
  company_name: v.nullable(v.string()),
  status: StoreStatus,
  ...timestamps,
});
export type Store = v.InferOutput<typeof Store>;

export const CreateStoreBody = v.strictObject({
  trade_name: text(200),
  company_name: v.optional(text(200)),
  store_id: v.optional(externalCode),
});
export type CreateStoreInput = v.InferOutput<typeof CreateStoreBody>;

export const UpdateStoreBody = changesOf({
  trade_name: v.optional(text(200)),
  company_name: v.optional(text(200)),
  status: v.optional(StoreStatus),
});
export type StoreChanges = v.InferOutput<typeof UpdateStoreBody>;

export const ListStoresQuery = v.strictObject({
  ...pagingQuery,
  status: v.optional(StoreStatus),
  name: v.optional(text(200)),
  store_id: v.optional(externalCode),
});
export type StoreFilters = v.InferOutput<typeof ListStoresQuery>;
