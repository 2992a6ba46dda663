import { NotFoundError, type FieldProblem } from '../errors.js';
import type { ListBody } from '../paging.js';
import { isBirthDate } from '../schema.js';
import type { CustomerRepository } from './ports.js';
import type { CreateCustomerInput, CustomerChanges, CustomerFilters } from './requests.js';
import { changedValues, givenValues, type Customer } from './schema.js';

export interface CreatedCustomer extends Customer {
  /** What was accepted but not stored, e.g. an impossible birth date (ignored on create, refused on edit). */
  warnings?: FieldProblem[];
}

/** Customers: created (by the API and by transactions), read, edited and listed through their repository. */
export function customerService(customers: CustomerRepository) {
  async function createCustomer(tenantId: number, input: CreateCustomerInput): Promise<CreatedCustomer> {
    const warnings: FieldProblem[] = [];
    let birthDate = input.birth_date ?? null;
    if (birthDate && !isBirthDate(birthDate)) {
      warnings.push({
        path: 'birth_date',
        // The field, not the date: a transaction keeps its warnings.
        message: 'is not a valid birth date (a calendar date, not in the future) and was ignored',
      });
      birthDate = null;
    }
    const id = await customers.nextId(tenantId);
    const now = new Date().toISOString();
    const customer: Customer = {
      ...givenValues(input),
      id,
      // A customer always has a name to show; without one, the best identifier sent stands in (as the reference API does).
      name: input.name ?? input.email ?? input.cpf ?? input.phone ?? input.client_id!,
      birth_date: birthDate,
      created_at: now,
      updated_at: now,
    };
    await customers.insert(tenantId, customer);
    return warnings.length ? { ...customer, warnings } : customer;
  }

  async function getCustomer(tenantId: number, id: number): Promise<Customer> {
    const customer = await customers.get(tenantId, id);
    if (!customer) throw new NotFoundError(`Customer ${id} not found.`);
    return customer;
  }

  const editCustomer = (tenantId: number, id: number, changes: CustomerChanges): Promise<Customer> =>
    customers.update(tenantId, id, { changes: changedValues(changes), now: new Date().toISOString() });

  async function listCustomers(tenantId: number, filters: CustomerFilters): Promise<ListBody<Customer>> {
    const { items, nextCursor } = await customers.list(tenantId, filters);
    return { data: items, page: filters.page, limit: filters.limit, next_cursor: nextCursor };
  }

  return { createCustomer, getCustomer, editCustomer, listCustomers };
}

export type CustomerService = ReturnType<typeof customerService>;

/**
 * A customer opted out (the survey page's link, an e-mail complaint), through `edit` (the service's editCustomer): an
 * erased customer has nothing left to opt out of.
 */
export function customerOptOut(edit: (tenantId: number, id: number, changes: CustomerChanges) => Promise<unknown>) {
  return async function optOutCustomer(tenantId: number, customerId: number): Promise<void> {
    try {
      await edit(tenantId, customerId, { opt_out: true });
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  };
}
