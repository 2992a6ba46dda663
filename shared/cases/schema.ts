import * as v from 'valibot';
import { calendarDate, email, integerString, MAX_INT_ID, pagingQuery, paragraphs, text } from '../schema.js';
import { MAX_TRANSACTION_ID } from '../transaction-id.js';
import type { CaseBody } from './bodies.js';
import { CASE_STATUSES, MAX_NOTE_LENGTH, type CaseRecord } from './record.js';

/** The cases API's requests (GET/PATCH /public/cases...); its answers' schemas are in bodies.ts, which only the API's contracts build. */

/** A case is named by its transaction's internal id. */
export const CaseIdPath = v.strictObject({ id: integerString(1, MAX_TRANSACTION_ID) });

const statuses = `must be one of ${CASE_STATUSES.join(', ')}`;

export const CasesQuery = v.strictObject({
  /**
   * The case of this short number in the tenant (the `number` a case page, e-mail and chat alert show; never its id):
   * a page of it alone, or of none. No other filter goes with it.
   */
  number: v.optional(integerString(1, MAX_INT_ID)),
  status: v.optional(v.picklist(CASE_STATUSES, statuses)),
  store: v.optional(integerString(1, MAX_INT_ID)),
  /** Only the stores of this region and of its child regions (docs/regions.md). */
  region: v.optional(integerString(1, MAX_INT_ID)),
  overdue: v.optional(v.picklist(['true', 'false'], 'must be true or false')),
  /** Whose cases: `me` (the caller's user), `none` (the unassigned ones), or a person's e-mail address. */
  owner: v.optional(v.union([v.picklist(['me', 'none']), email], "must be me, none or a user's e-mail address")),
  /** The first and last day (UTC) a listed case opened. */
  from: v.optional(calendarDate),
  to: v.optional(calendarDate),
  limit: pagingQuery.limit,
  cursor: pagingQuery.cursor,
});
export type CasesQuery = v.InferOutput<typeof CasesQuery>;

/** PATCH /public/cases/{id}: what a manager changes; at least one field. */
export const CasePatch = v.strictObject({
  status: v.optional(v.picklist(CASE_STATUSES, statuses)),
  /** The e-mail address of a user who signs in and whose scope holds the case's store; null: nobody (unassigned). */
  owner: v.optional(v.nullable(email)),
  /** One of the tenant's root causes (required to resolve). */
  root_cause: v.optional(text(100)),
  /** A note in the manager's words (required to resolve). */
  note: v.optional(
    v.pipe(
      paragraphs(MAX_NOTE_LENGTH),
      v.check((note) => note.trim().length > 0, 'must not be empty'),
    ),
  ),
});
export type CasePatch = v.InferOutput<typeof CasePatch>;

export function caseBody(record: CaseRecord, journeySlug: string | null): CaseBody {
  return {
    id: record.id,
    number: record.number,
    transaction_id: record.transactionCode,
    journey: { id: record.journeyId, slug: journeySlug },
    store: record.storeId,
    employee: record.employeeId,
    customer: { id: record.customerId, name: record.customerName },
    score: record.score,
    comment: record.comment,
    answered_at: record.answeredAt,
    status: record.status,
    owner: record.owner,
    opened_at: record.openedAt,
    due_at: record.dueAt,
    overdue: record.overdue,
    first_contact_at: record.firstContactAt,
    closed_at: record.closedAt,
    root_cause: record.rootCause,
    notes: record.notes,
    history: record.history,
    recovery: record.recovery,
    version: record.version,
  };
}
