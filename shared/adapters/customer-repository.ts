import * as v from 'valibot';
import { keys, padId } from '../keys.js';
import { normaliseName } from '../text.js';
import { inIndex, indexAttributes, TABLE } from '../table.js';
import type { CustomerFilters } from '../customers/requests.js';
import { Customer } from '../customers/schema.js';
import type { CustomerRepository } from '../customers/ports.js';
import { db, nextId, pageByIdRange, queryPage, type Filter, type Item, type Page, type QuerySpec } from './dynamodb.js';
import { entityRepository, exactIndex } from './entity-repository.js';

const ENTITY = 'CUSTOMER';
/** Customers are created often (by transactions too): their ids are reserved this many at a time. */
export const CUSTOMER_ID_BLOCK = 20;
/** Customer names are sharded by their first two characters: a tenant may have ten million customers. */
export const nameShard = (normalisedName: string) => normalisedName.slice(0, 2);

export const customers = entityRepository<Customer>({
  entity: ENTITY,
  parse: (item) => v.parse(Customer, item),
  externalId: 'client_id',
  // Ten million customers do not share one index partition: the unfiltered list pages by id range instead.
  collection: false,
  derived: {
    // Sparse: only opted-out customers are in gsi2.
    opt_out: (tenantId, id, optOut) => inIndex('gsi2', optOut ? keys.optedOut(tenantId) : undefined, optOut ? padId(id) : undefined),
    name: (tenantId, id, name) => {
      const normalised = normaliseName(name);
      return inIndex('gsi3', keys.byName(tenantId, ENTITY, nameShard(normalised)), keys.nameSort(normalised, id));
    },
    email: exactIndex('gsi5', ENTITY, 'email'),
    phone: exactIndex('gsi6', ENTITY, 'phone'),
    // Only privacy requests look a second phone up; keys only, so it costs one small index write.
    phone2: exactIndex('gsi9', ENTITY, 'phone'),
    cpf: exactIndex('gsi7', ENTITY, 'cpf'),
  },
});

/**
 * A client_id names at most one customer, found through its guard (no index to write on every create). Otherwise
 * the most selective filter present is the key condition (cpf, email, phone, name, opt_out=true) and the others
 * filter; with none, the list pages by id range.
 */
async function queryCustomers(tenantId: number, filters: CustomerFilters): Promise<Page> {
  const { name, email, phone, cpf, client_id: clientId, opt_out: optOut } = filters;
  if (clientId !== undefined) {
    const customer = await customers.findByExternalId(tenantId, clientId);
    const item = customer && matches(customer, filters) ? [customer as unknown as Item] : [];
    return { items: filters.page > 1 || filters.cursor ? [] : item, nextCursor: null };
  }
  const normalised = name ? normaliseName(name) : undefined;
  const candidates: [unknown, QuerySpec['index'], () => string, Filter][] = [
    [cpf, 'gsi7', () => keys.byValue(tenantId, { entity: ENTITY, field: 'cpf', value: cpf! }), { attribute: 'cpf', equals: cpf! }],
    [
      email,
      'gsi5',
      () => keys.byValue(tenantId, { entity: ENTITY, field: 'email', value: email! }),
      { attribute: 'email', equals: email! },
    ],
    [
      phone,
      'gsi6',
      () => keys.byValue(tenantId, { entity: ENTITY, field: 'phone', value: phone! }),
      { attribute: 'phone', equals: phone! },
    ],
    [
      normalised,
      'gsi3',
      () => keys.byName(tenantId, ENTITY, nameShard(normalised!)),
      { attribute: indexAttributes('gsi3').sortKey, beginsWith: normalised! },
    ],
    [optOut === true ? true : undefined, 'gsi2', () => keys.optedOut(tenantId), { attribute: 'opt_out', equals: true }],
  ];
  const present = candidates.filter(([value]) => value !== undefined);
  const others = (skip: number) => [
    ...present.filter((_, i) => i !== skip).map(([, , , filter]) => filter),
    ...(optOut === false ? [{ attribute: 'opt_out', equals: false }] : []),
  ];
  const [first] = present;
  if (!first) {
    return pageByIdRange(db(), tenantId, {
      entity: ENTITY,
      request: filters,
      keep: (item) => item[TABLE.entityAttribute] === ENTITY && (optOut === undefined || item.opt_out === optOut),
    });
  }
  const [, index, partition, filter] = first;
  const spec: QuerySpec = { index, partition: partition(), filters: others(0) };
  if (index === 'gsi3') spec.sortBeginsWith = (filter as { beginsWith: string }).beginsWith;
  return queryPage(db(), spec, filters);
}

/** The other filters, applied to the one customer a client_id names. */
function matches(customer: Customer, filters: CustomerFilters): boolean {
  return (
    (filters.name === undefined || normaliseName(customer.name).startsWith(normaliseName(filters.name))) &&
    (filters.email === undefined || customer.email === filters.email) &&
    (filters.phone === undefined || customer.phone === filters.phone) &&
    (filters.cpf === undefined || customer.cpf === filters.cpf) &&
    (filters.opt_out === undefined || customer.opt_out === filters.opt_out)
  );
}

export const customerRepository: CustomerRepository = {
  ...customers,
  nextId: (tenantId) => nextId(db(), tenantId, { entity: ENTITY, blockSize: CUSTOMER_ID_BLOCK }),
  async list(tenantId, filters) {
    const { items, nextCursor } = await queryCustomers(tenantId, filters);
    return { items: items.map(customers.parse), nextCursor };
  },
};
