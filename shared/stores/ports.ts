import type { Found } from '../paging.js';
import type { Store } from './schema.js';
import type { StoreFilters } from './requests.js';

/** Where stores are kept: `shared/adapters/store-repository.ts` implements it over the table. */
export interface StoreRepository {
  /** An id no store of the tenant had before. */
  nextId(tenantId: number): Promise<number>;
  /** Stores a new store; a `store_id` another store has is a DuplicateError. */
  insert(tenantId: number, store: Store): Promise<void>;
  get(tenantId: number, id: number): Promise<Store | undefined>;
  /** The stores of these ids that exist, read together. */
  getMany(tenantId: number, ids: number[]): Promise<Store[]>;
  findByExternalId(tenantId: number, storeId: string): Promise<Store | undefined>;
  /** The store after the change; NotFoundError when it does not exist, DuplicateError for a `store_id` in use. */
  update(tenantId: number, id: number, edit: { changes: Partial<Store>; now: string }): Promise<Store>;
  list(tenantId: number, filters: StoreFilters): Promise<Found<Store>>;
}
