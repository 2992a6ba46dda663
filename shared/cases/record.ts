import * as v from 'valibot';

/**
 * A case: what a manager does about one answer that matched its journey's rule (issue 33). One per transaction, under
 * the transaction's internal id, so that a redelivered or corrected answer can never open a second one.
 *
 * `open` -> `in_progress` (the first contact with the customer, noted) -> `resolved` (a root cause and a note) or
 * `closed_unresolved`. `overdue` is set by the deadline check once `dueAt` passes, `recovery` by the recovery survey.
 */
export { CASE_STATUSES, CLOSED_STATUSES, type CaseStatus } from '../case-status.js';
import { CASE_STATUSES, type CaseStatus } from '../case-status.js';

/** What can follow each status (a status may also stay as it is when only the owner or a note changes). */
export const TRANSITIONS: Record<CaseStatus, readonly CaseStatus[]> = {
  open: ['in_progress', 'closed_unresolved'],
  in_progress: ['resolved', 'closed_unresolved'],
  resolved: [],
  closed_unresolved: [],
};

/** The most notes and history entries a case keeps (its item stays far below DynamoDB's 400 KB). */
export const MAX_NOTES = 100;
export const MAX_NOTE_LENGTH = 2000;
export const MAX_HISTORY = 200;

export const CaseNote = v.object({ author: v.string(), at: v.string(), text: v.string() });
export type CaseNote = v.InferOutput<typeof CaseNote>;

export const CASE_ACTIONS = [
  'opened',
  'rescored',
  'status',
  'owner',
  'note',
  'contact',
  'overdue',
  'recovery',
  'erased',
  'expired',
] as const;
export const CaseHistoryEntry = v.object({
  at: v.string(),
  /** A user's name, or `system`. */
  by: v.string(),
  action: v.picklist(CASE_ACTIONS),
  from: v.optional(v.nullable(v.string())),
  to: v.optional(v.nullable(v.string())),
});
export type CaseHistoryEntry = v.InferOutput<typeof CaseHistoryEntry>;

export const RECOVERY_OUTCOMES = ['pending', 'recovered', 'not_recovered'] as const;
/** What the recovery survey found (the `recovery` part writes it through `recordRecovery`). */
export const CaseRecovery = v.object({
  outcome: v.picklist(RECOVERY_OUTCOMES),
  at: v.string(),
  score: v.optional(v.nullable(v.number())),
});
export type CaseRecovery = v.InferOutput<typeof CaseRecovery>;

export const CaseRecord = v.object({
  /** The transaction's internal id. */
  id: v.number(),
  /**
   * The caller's own code for the transaction (its `transaction_id`), copied when the case opens; null when it sent
   * none, and for the cases opened before it was copied. Not personal data: erasure leaves it, as it does the answer's.
   */
  transactionCode: v.optional(v.nullable(v.string()), null),
  /**
   * The case's short number in its tenant (1, 2, 3...: read to a customer on the phone), given when it opens, in the
   * same write; null for the cases opened before numbers were given, and on a case not yet stored.
   */
  number: v.optional(v.nullable(v.number()), null),
  journeyId: v.number(),
  storeId: v.number(),
  employeeId: v.number(),
  customerId: v.number(),
  /** The customer's name as the transaction copied it; null once erased or expired. */
  customerName: v.nullable(v.string()),
  score: v.number(),
  /** The customer's words; null once erased or expired. */
  comment: v.nullable(v.string()),
  answeredAt: v.string(),
  /** The answer version the case shows (a correction raises it). */
  answerVersion: v.number(),
  openedAt: v.string(),
  dueAt: v.string(),
  overdue: v.boolean(),
  overdueAt: v.nullable(v.string()),
  /** The one person who owns the case (an e-mail user whose scope holds its store), or null: unassigned (owner.ts). */
  owner: v.nullable(v.string()),
  status: v.picklist(CASE_STATUSES),
  firstContactAt: v.nullable(v.string()),
  closedAt: v.nullable(v.string()),
  rootCause: v.nullable(v.string()),
  notes: v.array(CaseNote),
  history: v.array(CaseHistoryEntry),
  /** When the alert was claimed (set before it is sent: at most one alert per case). */
  alertedAt: v.nullable(v.string()),
  recovery: v.nullable(CaseRecovery),
  /** The customer was erased, or their data's retention ended: the case keeps no personal data of theirs, and takes no note. */
  erased: v.boolean(),
  /** Raised by every write, each of which is conditional on the one it read. */
  version: v.number(),
});
export type CaseRecord = v.InferOutput<typeof CaseRecord>;

/** How a case is named to a person: its short number (`#12`), or its id for a case opened before numbers were given. */
export const caseLabel = (c: { id: number; number: number | null }) => (c.number !== null ? `#${c.number}` : String(c.id));
