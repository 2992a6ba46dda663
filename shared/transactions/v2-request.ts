import * as v from 'valibot';
import { fromV2Fields, v2Fields } from '../customers/fields.js';
import { dateTime, email, externalCode, refusingReservedKeys, text } from '../schema.js';
import {
  amount,
  comment,
  internalId,
  MAX_PARAM_NAME_LENGTH,
  oneOf,
  paramNameProblem,
  paramValue,
  score,
  type TransactionCommand,
} from './requests.js';

/* POST /v2/transactions: its body (also the TransactionQueue message's payload, which the consumer parses again). */

/** Custom parameters: a map of at most 30 named values. */
const params = refusingReservedKeys(
  v.pipe(
    v.record(
      v.pipe(
        v.string(),
        v.maxLength(MAX_PARAM_NAME_LENGTH, `parameter names must be at most ${MAX_PARAM_NAME_LENGTH} characters`),
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
