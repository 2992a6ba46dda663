import * as v from 'valibot';
import { LOCALES } from '../locale.js';
import { birthDate, dateShape, email, line, text } from '../schema.js';
import { phone } from './phone.js';

/*
 * The customer fields a client may send, each once: the rule it is checked with and how each interface names it.
 * Create and update (./requests.ts), the v2 transaction's `customer` and the legacy transaction's flat fields
 * (../transactions/requests.ts) are all picked from CUSTOMER_FIELDS. A new field is its line here and its place in
 * the record (./schema.ts); GET, the privacy export (the stored record whole) and OpenAPI (generated from these
 * schemas) follow. Only a field that transactions copy would also need the privacy rules that strip those copies.
 */

/** The 11 digits of a cpf; dots, dashes and spaces are stripped. */
export const cpf = v.pipe(
  v.string('must be a string'),
  v.maxLength(20, 'must be at most 20 characters'),
  v.transform((value) => value.replace(/[\s.\-/]/g, '')),
  v.regex(/^\d{11}$/, 'must be the 11 digits of a cpf (dots and dash allowed)'),
);

export const gender = line(30);

interface FieldRule {
  /** What create and both transaction interfaces accept. */
  readonly rule: v.GenericSchema;
  /** What an edit accepts, when stricter (an impossible birth date is ignored on create, refused on edit). */
  readonly edit?: v.GenericSchema;
  /** Its name in the v2 transaction's `customer`, when not the record's. */
  readonly v2?: string;
  /** An edit cannot clear it (null). */
  readonly required?: true;
}

export const CUSTOMER_FIELDS = {
  name: { rule: text(200), required: true },
  email: { rule: email },
  phone: { rule: phone },
  phone2: { rule: phone },
  cpf: { rule: cpf },
  birth_date: { rule: dateShape, edit: birthDate, v2: 'birthDate' },
  gender: { rule: gender },
  locale: { rule: v.picklist(LOCALES, `must be one of ${LOCALES.join(', ')}`) },
} as const satisfies Record<string, FieldRule>;

type Fields = typeof CUSTOMER_FIELDS;
export type CustomerField = keyof Fields;
type EditRule<K extends CustomerField> = Fields[K] extends { edit: infer E extends v.GenericSchema } ? E : Fields[K]['rule'];
type V2Name<K extends CustomerField> = Fields[K] extends { v2: infer N extends string } ? N : K;

const entries = Object.entries(CUSTOMER_FIELDS) as [CustomerField, FieldRule][];
const v2NameOf = (field: CustomerField, rule: FieldRule) => rule.v2 ?? field;

/** Every field, optional: what a create and the legacy transaction accept (the record's names). */
export const givenFields = Object.fromEntries(entries.map(([field, { rule }]) => [field, v.optional(rule)])) as {
  [K in CustomerField]: v.OptionalSchema<Fields[K]['rule'], undefined>;
};

/** Every field, optional, and null to clear one that may be cleared: what an edit accepts. */
export const changedFields = Object.fromEntries(
  entries.map(([field, { rule, edit = rule, required }]) => [field, v.optional(required ? edit : v.nullable(edit))]),
) as {
  [K in CustomerField]: Fields[K] extends { required: true }
    ? v.OptionalSchema<EditRule<K>, undefined>
    : v.OptionalSchema<v.NullableSchema<EditRule<K>, undefined>, undefined>;
};

/** Every field, optional, by its v2 name: the v2 transaction's `customer`. */
export const v2Fields = Object.fromEntries(entries.map(([field, rule]) => [v2NameOf(field, rule), v.optional(rule.rule)])) as {
  [K in CustomerField as V2Name<K>]: v.OptionalSchema<Fields[K]['rule'], undefined>;
};

/** The fields a client sent, by the record's names. */
export type GivenFields = { [K in CustomerField]?: v.InferOutput<Fields[K]['rule']> | undefined };

/** The fields of a v2 `customer`, by the record's names. */
export const fromV2Fields = (customer: { [K in CustomerField as V2Name<K>]?: GivenFields[K] }): GivenFields =>
  Object.fromEntries(entries.map(([field, rule]) => [field, customer[v2NameOf(field, rule) as keyof typeof customer]])) as GivenFields;

/** The fields of a legacy transaction's flat body (the record's names). */
export const fromLegacyFields = (body: GivenFields): GivenFields =>
  Object.fromEntries(entries.map(([field]) => [field, body[field]])) as GivenFields;

/** A record field's path in the v2 transaction body (`customer.birthDate`). */
export const v2PathOf = (field: string): string =>
  `customer.${field in CUSTOMER_FIELDS ? v2NameOf(field as CustomerField, CUSTOMER_FIELDS[field as CustomerField]) : field}`;
