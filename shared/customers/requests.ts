import * as v from 'valibot';
import { normaliseName } from '../text.js';
import { birthDate, changesOf, dateShape, email, externalCode, line, pagingQuery, text } from '../schema.js';
import { phone } from './phone.js';

/*
 * What clients send about customers. Apart from the record (./schema.ts) because phones are normalised with
 * libphonenumber's metadata, which only the functions that take phones should load.
 */

/** The 11 digits of a cpf; dots, dashes and spaces are stripped. */
export const cpf = v.pipe(
  v.string('must be a string'),
  v.transform((value) => value.replace(/[\s.\-/]/g, '')),
  v.regex(/^\d{11}$/, 'must be the 11 digits of a cpf (dots and dash allowed)'),
);

export const gender = line(30);

const IDENTIFYING = ['name', 'email', 'phone', 'cpf', 'client_id'] as const;

/** POST: an impossible birth date is not an error here; the service drops it and says so. */
export const CreateCustomerBody = v.pipe(
  v.strictObject({
    name: v.optional(text(200)),
    email: v.optional(email),
    phone: v.optional(phone),
    phone2: v.optional(phone),
    cpf: v.optional(cpf),
    birth_date: v.optional(dateShape),
    gender: v.optional(gender),
    client_id: v.optional(externalCode),
    opt_out: v.optional(v.boolean('must be true or false'), false),
  }),
  v.check((body) => IDENTIFYING.some((field) => body[field] !== undefined), `send at least one of ${IDENTIFYING.join(', ')}`),
);
export type CreateCustomerInput = v.InferOutput<typeof CreateCustomerBody>;

/** PUT: the fields to change; null clears an optional one. An impossible birth date is an error here. */
export const UpdateCustomerBody = changesOf({
  name: v.optional(text(200)),
  email: v.optional(v.nullable(email)),
  phone: v.optional(v.nullable(phone)),
  phone2: v.optional(v.nullable(phone)),
  cpf: v.optional(v.nullable(cpf)),
  birth_date: v.optional(v.nullable(birthDate)),
  gender: v.optional(v.nullable(gender)),
  client_id: v.optional(v.nullable(externalCode)),
  opt_out: v.optional(v.boolean('must be true or false')),
});
export type CustomerChanges = v.InferOutput<typeof UpdateCustomerBody>;

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
