import type { Found } from '../paging.js';
import type { CustomerFilters } from './requests.js';
import type { Customer } from './schema.js';

/** Where customers are kept: `shared/adapters/customer-repository.ts` implements it over the table. */
export interface CustomerRepository {
  /** An id no customer of the tenant had before (reserved in blocks: customers are created often). */
  nextId(tenantId: number): Promise<number>;
  /** Stores a new customer; a `client_id` another customer has is a DuplicateError. */
  insert(tenantId: number, customer: Customer): Promise<void>;
  get(tenantId: number, id: number): Promise<Customer | undefined>;
  findByExternalId(tenantId: number, clientId: string): Promise<Customer | undefined>;
  /** The customer after the change; NotFoundError when it does not exist, DuplicateError for a `client_id` in use. */
  update(tenantId: number, id: number, edit: { changes: Partial<Customer>; now: string }): Promise<Customer>;
  list(tenantId: number, filters: CustomerFilters): Promise<Found<Customer>>;
}
