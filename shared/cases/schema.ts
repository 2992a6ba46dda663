import * as v from 'valibot';
import { calendarDate, integerString, MAX_INT_ID, pagingQuery, paragraphs, text } from '../schema.js';
import { MAX_TRANSACTION_ID } from '../transaction-record.js';
import { CASE_STATUSES, MAX_NOTE_LENGTH, type CaseRecord } from './record.js';

/** The cases API's requests and answers (GET/PATCH /public/cases...). */

/** A case is named by its transaction's internal id. */
export const CaseIdPath = v.strictObject({ id: integerString(1, MAX_TRANSACTION_ID) });

const statuses = `must be one of ${CASE_STATUSES.join(', ')}`;

export const CasesQuery = v.strictObject({
  status: v.optional(v.picklist(CASE_STATUSES, statuses)),
  store: v.optional(integerString(1, MAX_INT_ID)),
  overdue: v.optional(v.picklist(['true', 'false'], 'must be true or false')),
  /** Only the cases this user (a user's name: a manager's e-mail address) owns: a manager's own cases. */
  owner: v.optional(text(254)),
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
  /** A user's name: a user whose scope holds the case's store. */
  owner: v.optional(text(200)),
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
  owners: v.array(v.string()),
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

export function caseBody(record: CaseRecord, journeySlug: string | null): CaseBody {
  return {
    id: record.id,
    transaction_id: record.id,
    journey: { id: record.journeyId, slug: journeySlug },
    store: record.storeId,
    employee: record.employeeId,
    customer: { id: record.customerId, name: record.customerName },
    score: record.score,
    comment: record.comment,
    answered_at: record.answeredAt,
    status: record.status,
    owners: record.owners,
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

/** The case queue's message: which answer was written (no personal data: tenant, transaction, answer version). */
export const CaseMessage = v.object({
  tenantId: v.pipe(v.number(), v.integer()),
  transactionId: v.pipe(v.number(), v.integer()),
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** Set on the message that comes back when the tenant's quiet hours end: it sends the held WhatsApp alerts only. */
  alert: v.optional(v.literal('whatsapp')),
  /** When a held alert is due (set by its timer). */
  dueAt: v.optional(v.string()),
});
export type CaseMessage = v.InferOutput<typeof CaseMessage>;
