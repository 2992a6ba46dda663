import * as v from 'valibot';
import { CASE_STATUSES } from './record.js';

/**
 * The cases API's answers, for its contracts (OpenAPI): the workspace's pages and the services name only the types, so
 * they build none of these schemas.
 */

export const CaseBody = v.object({
  id: v.number(),
  transaction_id: v.number(),
  journey: v.object({ id: v.number(), slug: v.nullable(v.string()) }),
  store: v.number(),
  employee: v.number(),
  customer: v.object({ id: v.number(), name: v.nullable(v.string()) }),
  score: v.number(),
  comment: v.nullable(v.string()),
  answered_at: v.string(),
  status: v.picklist(CASE_STATUSES),
  /** The one person who owns the case (their e-mail address), or null: unassigned. */
  owner: v.nullable(v.string()),
  opened_at: v.string(),
  due_at: v.string(),
  overdue: v.boolean(),
  first_contact_at: v.nullable(v.string()),
  closed_at: v.nullable(v.string()),
  root_cause: v.nullable(v.string()),
  notes: v.array(v.object({ author: v.string(), at: v.string(), text: v.string() })),
  history: v.array(
    v.object({
      at: v.string(),
      by: v.string(),
      action: v.string(),
      from: v.optional(v.nullable(v.string())),
      to: v.optional(v.nullable(v.string())),
    }),
  ),
  recovery: v.nullable(v.object({ outcome: v.string(), at: v.string(), score: v.optional(v.nullable(v.number())) })),
  version: v.number(),
});
export type CaseBody = v.InferOutput<typeof CaseBody>;

export const CasesBody = v.object({ data: v.array(CaseBody), limit: v.number(), next_cursor: v.nullable(v.string()) });

export const CaseContactBody = v.object({
  id: v.number(),
  customer: v.object({ id: v.number(), name: v.nullable(v.string()), phone: v.nullable(v.string()), email: v.nullable(v.string()) }),
});
