import * as v from 'valibot';
import { timestamps } from '../schema.js';
import { LOCALES } from '../locale.js';

export const Customer = v.object({
  id: v.number(),
  name: v.string(),
  email: v.nullable(v.string()),
  phone: v.nullable(v.string()),
  phone2: v.nullable(v.string()),
  cpf: v.nullable(v.string()),
  birth_date: v.nullable(v.string()),
  gender: v.nullable(v.string()),
  client_id: v.nullable(v.string()),
  opt_out: v.boolean(),
  /** The language the customer's surveys speak (before the journey's and the tenant's). */
  locale: v.optional(v.picklist(LOCALES)),
  ...timestamps,
});
export type Customer = v.InferOutput<typeof Customer>;

/** What a create answers: the customer, and what was accepted but not stored. */
export const CreatedCustomerBody = v.object({
  ...Customer.entries,
  warnings: v.optional(v.array(v.object({ path: v.string(), message: v.string() }))),
});
