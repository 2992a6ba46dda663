import * as v from 'valibot';
import { fromLegacyFields, fromV2Fields, givenFields, v2Fields, type GivenFields } from '../customers/fields.js';
import { dateTime, email, externalCode, MAX_INT_ID, paragraphs, refusingReservedKeys, storableNumber, text } from '../schema.js';

/**
 * The payloads of both transaction interfaces, and the one command both become. Shapes only: whether a journey,
 * class or store exists is the domain service's business. Apart from the stored record (./schema.ts), so that the
 * functions that only read transactions load no phone metadata.
 */
const internalId = v.pipe(
  v.number('must be a number'),
  v.integer('must be an integer'),
  v.minValue(1, 'must be at least 1'),
  v.maxValue(MAX_INT_ID, 'is too large'),
);
const score = v.pipe(v.number('must be a number'), v.minValue(-1_000_000, 'is out of range'), v.maxValue(1_000_000, 'is out of range'));
const comment = paragraphs(2000);
const amount = v.pipe(
  storableNumber,
  v.minValue(-1e12, 'must be at least -1000000000000'),
  v.maxValue(1e12, 'must be at most 1000000000000'),
);
const paramValue = v.union(
  [paragraphs(500), storableNumber, v.boolean()],
  'must be a string, a number the table can store exactly, or a boolean',
);
/** Names of custom parameters: what a stored map can hold as a key, and nothing an object already has. */
const RESERVED_PARAM_NAMES = new Set(['__proto__', 'constructor', 'prototype']);
const paramNameProblem = (name: string): string | undefined => {
  if (!name.trim()) return 'parameter names must not be empty';
  if (name.length > 64) return 'parameter names must be at most 64 characters';
  if (/[\p{C}]/u.test(name)) return 'parameter names must not contain control or invisible characters';
  if (RESERVED_PARAM_NAMES.has(name)) return `"${name}" is a reserved name`;
  return undefined;
};
const params = refusingReservedKeys(
  v.pipe(
    v.record(
      v.pipe(
        v.string(),
        v.rawCheck(({ dataset, addIssue }) => {
          const problem = dataset.typed ? paramNameProblem(dataset.value) : undefined;
          if (problem) addIssue({ message: problem });
        }),
      ),
      paramValue,
      'must be an object',
    ),
    v.check((p) => Object.keys(p).length <= 30, 'may hold at most 30 parameters'),
  ),
);
const oneOf = <T extends Record<string, unknown>>(fields: (keyof T & string)[]) =>
  v.check<T, string>((value) => fields.some((field) => value[field] !== undefined), `needs one of ${fields.join(' or ')}`);

// ---- POST /v2/transactions ----------------------------------------------------------------------------------

export const V2TransactionBody = v.strictObject({
  store: v.pipe(
    v.strictObject(
      {
        id: v.optional(internalId),
        externalId: v.optional(externalCode),
        tradeName: v.optional(text(200)),
        companyName: v.optional(text(200)),
      },
      'must be an object',
    ),
    oneOf(['id', 'externalId']),
  ),
  employee: v.pipe(
    v.strictObject(
      { id: v.optional(internalId), externalId: v.optional(externalCode), name: v.optional(text(200)), email: v.optional(email) },
      'must be an object',
    ),
    oneOf(['id', 'externalId']),
  ),
  customer: v.pipe(
    v.strictObject(
      {
        id: v.optional(internalId),
        externalId: v.optional(externalCode),
        ...v2Fields,
      },
      'must be an object',
    ),
    oneOf(['id', 'externalId']),
  ),
  transaction: v.pipe(
    v.strictObject(
      {
        journeyId: v.optional(internalId),
        journeySlug: v.optional(text(64)),
        externalId: v.optional(externalCode),
        amount: v.optional(amount),
        date: v.optional(dateTime),
        params: v.optional(params),
      },
      'must be an object',
    ),
    oneOf(['journeyId', 'journeySlug']),
  ),
  rating: v.optional(v.strictObject({ score, comment: v.optional(comment) }, 'must be an object')),
  ratingItems: v.optional(
    v.pipe(
      v.array(
        v.pipe(v.strictObject({ classId: v.optional(internalId), class: v.optional(text(100)), score }), oneOf(['classId', 'class'])),
        'must be a list',
      ),
      v.maxLength(50, 'may hold at most 50 items'),
    ),
  ),
});
export type V2TransactionBody = v.InferOutput<typeof V2TransactionBody>;

// ---- POST /public/transaction (legacy) ----------------------------------------------------------------------

const legacyFields = {
  store_id: v.optional(internalId),
  store_integration: v.optional(externalCode),
  store_name: v.optional(text(200)),
  employee_id: v.optional(internalId),
  employee_integration: v.optional(externalCode),
  employee_name: v.optional(text(200)),
  customer_id: v.optional(internalId),
  customer_integration: v.optional(externalCode),
  journey: v.optional(text(64)),
  journey_id: v.optional(internalId),
  transaction_id: v.optional(externalCode),
  amount: v.optional(amount),
  register_date: v.optional(dateTime),
  score: v.optional(score),
  comment: v.optional(comment),
  rating_items: v.optional(
    v.pipe(
      v.array(
        v.pipe(v.strictObject({ class_id: v.optional(internalId), class: v.optional(text(100)), score }), oneOf(['class_id', 'class'])),
        'must be a list',
      ),
      v.maxLength(50, 'may hold at most 50 items'),
    ),
  ),
  ...givenFields,
};
const LegacyObject = v.looseObject(legacyFields, 'must be an object');
type LegacyFields = v.InferOutput<typeof LegacyObject>;
export const PARAM_PREFIX = 'param_';

/** Custom fields travel as `param_<name>` keys beside the known ones; any other key is refused. */
export const LegacyTransactionBody = refusingReservedKeys(
  v.pipe(
    LegacyObject,
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const extra = Object.entries(dataset.value).filter(([key]) => !Object.hasOwn(legacyFields, key));
      for (const [key, value] of extra) {
        const path: [v.IssuePathItem] = [{ type: 'object', origin: 'value', input: dataset.value, key, value }];
        const nameProblem = key.startsWith(PARAM_PREFIX)
          ? paramNameProblem(key.slice(PARAM_PREFIX.length))
          : 'is not a known field (custom fields are param_<name>)';
        if (nameProblem) addIssue({ message: nameProblem, path });
        else if (!v.is(paramValue, value))
          addIssue({ message: 'must be a string, a number the table can store exactly, or a boolean', path });
      }
      if (extra.length > 30) addIssue({ message: 'may carry at most 30 param_ fields' });
    }),
    oneOf<LegacyFields>(['store_id', 'store_integration']),
    oneOf<LegacyFields>(['employee_id', 'employee_integration']),
    oneOf<LegacyFields>(['customer_id', 'customer_integration']),
    oneOf<LegacyFields>(['journey_id', 'journey']),
  ),
);
export type LegacyTransactionBody = v.InferOutput<typeof LegacyTransactionBody>;

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

export function fromV2(body: V2TransactionBody): TransactionCommand {
  return {
    store: body.store,
    employee: body.employee,
    customer: { id: body.customer.id, externalId: body.customer.externalId, ...fromV2Fields(body.customer) },
    journey: { id: body.transaction.journeyId, slug: body.transaction.journeySlug },
    externalId: body.transaction.externalId,
    amount: body.transaction.amount,
    date: body.transaction.date,
    params: body.transaction.params ?? {},
    rating: body.rating,
    ratingItems: (body.ratingItems ?? []).map((item) => ({ classId: item.classId, label: item.class, score: item.score })),
  };
}

export function fromLegacy(body: LegacyTransactionBody): TransactionCommand {
  const params = Object.fromEntries(
    Object.entries(body)
      .filter(([key]) => key.startsWith(PARAM_PREFIX))
      .map(([key, value]) => [key.slice(PARAM_PREFIX.length), value as string | number | boolean]),
  );
  return {
    store: { id: body.store_id, externalId: body.store_integration, tradeName: body.store_name },
    employee: { id: body.employee_id, externalId: body.employee_integration, name: body.employee_name },
    customer: {
      id: body.customer_id,
      externalId: body.customer_integration,
      ...fromLegacyFields(body),
    },
    journey: { id: body.journey_id, slug: body.journey },
    externalId: body.transaction_id,
    amount: body.amount,
    date: body.register_date,
    params,
    rating: body.score === undefined ? undefined : { score: body.score, comment: body.comment },
    ratingItems: (body.rating_items ?? []).map((item) => ({ classId: item.class_id, label: item.class, score: item.score })),
  };
}
