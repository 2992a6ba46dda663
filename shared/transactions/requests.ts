import * as v from 'valibot';
import type { GivenFields } from '../customers/fields.js';
import { MAX_INT_ID, paragraphs, storableNumber } from '../schema.js';

/**
 * What the payloads of both transaction interfaces share, and the one command both become. Shapes only: whether a
 * journey, class or store exists is the domain service's business. Apart from the stored record (./schema.ts), so
 * that the functions that only read transactions load no phone metadata; each interface's body is its own module
 * (./v2-request.ts, ./legacy-request.ts), so that each function builds the schemas of the one it takes.
 */
export const internalId = v.pipe(
  v.number('must be a number'),
  v.integer('must be an integer'),
  v.minValue(1, 'must be at least 1'),
  v.maxValue(MAX_INT_ID, 'is too large'),
);
export const score = v.pipe(
  v.number('must be a number'),
  v.minValue(-1_000_000, 'is out of range'),
  v.maxValue(1_000_000, 'is out of range'),
);
export const comment = paragraphs(2000);
export const amount = v.pipe(
  storableNumber,
  v.minValue(-1e12, 'must be at least -1000000000000'),
  v.maxValue(1e12, 'must be at most 1000000000000'),
);
export const paramValue = v.union(
  [paragraphs(500), storableNumber, v.boolean()],
  'must be a string, a number the table can store exactly, or a boolean',
);
/** Names of custom parameters: what a stored map can hold as a key, and nothing an object already has. */
const RESERVED_PARAM_NAMES = new Set(['__proto__', 'constructor', 'prototype']);
/** The longest name of a custom parameter. */
export const MAX_PARAM_NAME_LENGTH = 64;

export const paramNameProblem = (name: string): string | undefined => {
  if (!name.trim()) return 'parameter names must not be empty';
  if (name.length > MAX_PARAM_NAME_LENGTH) return `parameter names must be at most ${MAX_PARAM_NAME_LENGTH} characters`;
  if (/[\p{C}]/u.test(name)) return 'parameter names must not contain control or invisible characters';
  if (RESERVED_PARAM_NAMES.has(name)) return `"${name}" is a reserved name`;
  return undefined;
};
export const oneOf = <T extends Record<string, unknown>>(fields: (keyof T & string)[]) =>
  v.check<T, string>((value) => fields.some((field) => value[field] !== undefined), `needs one of ${fields.join(' or ')}`);

// ---- The command both interfaces become -----------------------------------------------------------------------

export interface TransactionCommand {
  store: { id?: number | undefined; externalId?: string | undefined; tradeName?: string | undefined; companyName?: string | undefined };
  employee: { id?: number | undefined; externalId?: string | undefined; name?: string | undefined; email?: string | undefined };
  /** The customer's id or external code, and its fields by the record's names. */
  customer: { id?: number | undefined; externalId?: string | undefined } & GivenFields;
  journey: { id?: number | undefined; slug?: string | undefined };
  externalId?: string | undefined;
  amount?: number | undefined;
  date?: string | undefined;
  params: Record<string, string | number | boolean>;
  rating?: { score: number; comment?: string | undefined } | undefined;
  ratingItems: { classId?: number | undefined; label?: string | undefined; score: number }[];
}
