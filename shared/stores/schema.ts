import * as v from 'valibot';
import { timestamps, wholeNumber } from '../schema.js';

export const StoreStatus = v.picklist(['active', 'inactive'], 'must be active or inactive');

/** The stored resource, as the API returns it. Items read back from the table are parsed with it. */
export const Store = v.object({
  id: wholeNumber,
  store_id: v.nullable(v.string()),
  trade_name: v.string(),
  company_name: v.nullable(v.string()),
  status: StoreStatus,
  ...timestamps,
});
export type Store = v.InferOutput<typeof Store>;
