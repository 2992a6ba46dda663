import * as v from 'valibot';
import { normaliseName } from '../text.js';
import { changesOf, email, externalCode, pagingQuery, text } from '../schema.js';
import { changedFields, cpf, givenFields } from './fields.js';
import { phone } from './phone.js';

/*
 * What clients send about customers. Apart from the record (./schema.ts) because phones are normalised with
 * libphonenumber's metadata, which only the functions that take phones should load.
 */

const IDENTIFYING = ['name', 'email', 'phone', 'cpf', 'client_id'] as const;

/** POST: an impossible birth date is not an error here; the service drops it and says so. */
export const CreateCustomerBody = v.pipe(
  v.strictObject({
    ...givenFields,
    client_id: v.optional(externalCode),
    opt_out: v.optional(v.boolean('must be true or false'), false),
  }),
  v.check((body) => IDENTIFYING.some((field) => body[field] !== undefined), `send at least one of ${IDENTIFYING.join(', ')}`),
);
export type CreateCustomerInput = v.InferOutput<typeof CreateCustomerBody>;

/** PUT: the fields to change; null clears an optional one. An impossible birth date is an error here. */
export const UpdateCustomerBody = changesOf({
  ...changedFields,
  client_id: v.optional(v.nullable(externalCode)),
  opt_out: v.optional(v.boolean('must be true or false')),
});
export type CustomerChanges = v.InferOutput<typeof UpdateCustomerBody>;

/**
 * Who may list customers: a customer belongs to the tenant, not to a store, and no index holds customers by the stores
 * they bought in (only each customer's transactions, keys only), so a store-limited token could only be served by
 * reading every customer's history. It is refused (403) rather than shown every store's customers.
 */
export const CUSTOMER_LIST_USER = {
  everyStore: 'The customer list needs a user token that sees every store: customers belong to no one store.',
};

export const ListCustomersQuery = v.strictObject({
  ...pagingQuery,
  name: v.optional(
    v.pipe(
      text(200),
      v.check((value) => normaliseName(value).length >= 2, 'must have at least 2 characters'),
    ),
  ),
  email: v.optional(email),
  phone: v.optional(phone),
  cpf: v.optional(cpf),
  client_id: v.optional(externalCode),
  opt_out: v.optional(
    v.pipe(
      v.picklist(['true', 'false'], 'must be true or false'),
      v.transform((value) => value === 'true'),
    ),
  ),
});
export type CustomerFilters = v.InferOutput<typeof ListCustomersQuery>;
