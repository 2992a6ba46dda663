import * as v from 'valibot';
import { CASE_ACTIONS, CASE_STATUSES, RECOVERY_OUTCOMES } from './record.js';
import { instant, transactionCode, wholeNumber } from '../schema.js';

/**
 * The cases API's answers, for its contracts (OpenAPI): the workspace's pages and the services name only the types, so
 * they build none of these schemas.
 */

export const CaseBody = v.object({
  id: wholeNumber,
  /** The case's short number in the tenant (1, 2, 3...), to read out on the phone; null for cases opened before numbers. */
  number: v.nullable(wholeNumber),
  transaction_id: transactionCode,
  journey: v.object({ id: wholeNumber, slug: v.nullable(v.string()) }),
  store: wholeNumber,
  employee: wholeNumber,
  customer: v.object({ id: wholeNumber, name: v.nullable(v.string()) }),
  score: v.number(),
  comment: v.nullable(v.string()),
  answered_at: instant,
  status: v.picklist(CASE_STATUSES),
  /** The one person who owns the case (their e-mail address), or null: unassigned. */
  owner: v.nullable(v.string()),
  opened_at: instant,
  due_at: instant,
  overdue: v.boolean(),
  first_contact_at: v.nullable(instant),
  closed_at: v.nullable(instant),
  root_cause: v.nullable(v.string()),
  notes: v.array(v.object({ author: v.string(), at: instant, text: v.string() })),
  history: v.array(
    v.object({
      at: instant,
      by: v.string(),
      action: v.picklist(CASE_ACTIONS),
      from: v.optional(v.nullable(v.string())),
      to: v.optional(v.nullable(v.string())),
    }),
  ),
  recovery: v.nullable(v.object({ outcome: v.picklist(RECOVERY_OUTCOMES), at: instant, score: v.optional(v.nullable(v.number())) })),
  version: wholeNumber,
});
export type CaseBody = v.InferOutput<typeof CaseBody>;

export const CasesBody = v.object({ data: v.array(CaseBody), limit: wholeNumber, next_cursor: v.nullable(v.string()) });

export const CaseContactBody = v.object({
  id: wholeNumber,
  customer: v.object({ id: wholeNumber, name: v.nullable(v.string()), phone: v.nullable(v.string()), email: v.nullable(v.string()) }),
});
