import * as v from 'valibot';
import { fromLegacyFields, givenFields } from '../customers/fields.js';
import { dateTime, externalCode, refusingReservedKeys, text } from '../schema.js';
import { amount, comment, internalId, oneOf, paramNameProblem, paramValue, score, type TransactionCommand } from './requests.js';

/** POST /public/transaction (legacy) and its aliases: a flat body, custom fields as `param_<name>` keys. */

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
