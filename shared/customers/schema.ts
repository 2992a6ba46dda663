import * as v from 'valibot';
import { LOCALES } from '../locale.js';
import { timestamps, wholeNumber } from '../schema.js';

export const Customer = v.object({
  id: wholeNumber,
  name: v.string(),
  email: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  phone2: v.nullable(v.string()),
  cpf: v.nullable(v.string()),
  birth_date: v.nullable(v.string()),
  gender: v.nullable(v.string()),
  /** Absent while unset (a field added after the seed contract); the language its surveys speak, before the journey's and the tenant's. */
  locale: v.optional(v.picklist(LOCALES)),
  client_id: v.nullable(v.string()),
  opt_out: v.boolean(),
  ...timestamps,
});
export type Customer = v.InferOutput<typeof Customer>;

/** Whether the record holds null for the field while it is unset; the fields added since the seed contract are absent instead. */
const heldAsNull = (field: string) => (Customer.entries as Record<string, v.GenericSchema | undefined>)[field]?.type === 'nullable';

/** The record's values of the fields a create gave: null for each one it did not give that the record holds as null. */
export function givenValues(given: Partial<Customer>): Omit<Customer, 'id' | 'name' | 'created_at' | 'updated_at'> {
  // Typed by construction: each key is the record's, each value given (so typed) or null where the record holds null.
  return Object.fromEntries(
    (Object.keys(Customer.entries) as (keyof Customer)[])
      .filter((field) => given[field] !== undefined || heldAsNull(field))
      .map((field) => [field, given[field] ?? null]),
  ) as Omit<Customer, 'id' | 'name' | 'created_at' | 'updated_at'>;
}

/** An edit's changes as the record keeps them: a field cleared (null) that the record does not hold as null is removed. */
export function changedValues(changes: { [K in keyof Customer]?: Customer[K] | null }): Partial<Customer> {
  return Object.fromEntries(
    Object.entries(changes).map(([field, value]) => [field, value === null && !heldAsNull(field) ? undefined : value]),
  ) as Partial<Customer>;
}

/** What a create answers: the customer, and what was accepted but not stored. */
export const CreatedCustomerBody = v.object({
  ...Customer.entries,
  warnings: v.optional(v.array(v.object({ path: v.string(), message: v.string() }))),
});
