import * as v from 'valibot';
import { normaliseName } from '../keys.js';
import { changesOf, email, externalCode, pagingQuery, text, timestamps } from '../schema.js';
import { toE164 } from './phone.js';

export const MAX_PHONE_LENGTH = 20;

/** A phone as sent (at most 20 characters), normalised to E.164 with +55 assumed. */
export const phone = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.maxLength(MAX_PHONE_LENGTH, `must be at most ${MAX_PHONE_LENGTH} characters`),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const e164 = toE164(dataset.value);
    if (!e164) {
      addIssue({ message: 'is not a phone number' });
      return NEVER;
    }
    return e164;
  }),
);

/** The 11 digits of a cpf; dots, dashes and spaces are stripped. */
export const cpf = v.pipe(
  v.string('must be a string'),
  v.transform((value) => value.replace(/[\s.\-/]/g, '')),
  v.regex(/^\d{11}$/, 'must be the 11 digits of a cpf (dots and dash allowed)'),
);

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
/** Whether a YYYY-MM-DD string names a day that exists (1998-04-31 does not). */
export function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}
const dateShape = v.pipe(v.string('must be a string'), v.regex(DATE_SHAPE, 'must be a date as YYYY-MM-DD'));
export const calendarDate = v.pipe(dateShape, v.check(isCalendarDate, 'is not a valid calendar date'));

const gender = v.pipe(v.string('must be a string'), v.trim(), v.maxLength(30, 'must be at most 30 characters'));

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
  ...timestamps,
});
export type Customer = v.InferOutput<typeof Customer>;

/** What a create answers: the customer, and what was accepted but not stored. */
export const CreatedCustomerBody = v.object({ ...Customer.entries, warnings: v.optional(v.array(v.object({ path: v.string(), message: v.string() }))) });

const IDENTIFYING = ['name', 'email', 'phone', 'cpf', 'client_id'] as const;

/** POST: an impossible birth date is not an error here (seed 2.1); the service drops it and says so. */
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
  birth_date: v.optional(v.nullable(calendarDate)),
  gender: v.optional(v.nullable(gender)),
  client_id: v.optional(v.nullable(externalCode)),
  opt_out: v.optional(v.boolean('must be true or false')),
});
export type CustomerChanges = v.InferOutput<typeof UpdateCustomerBody>;

export const ListCustomersQuery = v.strictObject({
  ...pagingQuery,
  name: v.optional(v.pipe(text(200), v.check((value) => normaliseName(value).length >= 2, 'must have at least 2 characters'))),
  email: v.optional(email),
  phone: v.optional(phone),
  cpf: v.optional(cpf),
  client_id: v.optional(externalCode),
  opt_out: v.optional(v.pipe(v.picklist(['true', 'false'], 'must be true or false'), v.transform((value) => value === 'true'))),
});
export type CustomerFilters = v.InferOutput<typeof ListCustomersQuery>;
