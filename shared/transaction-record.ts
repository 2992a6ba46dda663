import type { Locale } from './locale.js';
import * as v from 'valibot';
import { CHANNELS, type SourceName } from './channels.js';
import type { FieldProblem } from './errors.js';
import { instant, transactionCode, wholeNumber } from './schema.js';

/**
 * The stored transaction and its survey: the records both concepts read. The transaction rules write them
 * (`shared/transactions/`), the survey plan, delivery and answers read and move them (`shared/surveys/`); they sit
 * here, below both, so that neither imports the other to name them.
 */

export { MAX_TRANSACTION_ID } from './transaction-id.js';

/**
 * A survey's life, as its current attempt stands: `scheduled` -> `sent` -> `answered`, or `failed` (the provider
 * refused the contact and no attempt is left), or `not_sent` from the start; `expired` once its links lapse
 * unanswered. An answer may arrive while the attempt is still `scheduled` (through the chatbot).
 */
export const SURVEY_STATUSES = ['scheduled', 'sent', 'answered', 'failed', 'not_sent', 'expired'] as const;
/** Why a survey was not sent (`not_sent`) or did not arrive (`failed`). */
export const SURVEY_REASONS = [
  'already_rated',
  'opted_out',
  'no_contact',
  'throttled',
  'undeliverable',
  'refused',
  'not_configured',
] as const;

export const Survey = v.object({
  status: v.picklist(SURVEY_STATUSES),
  reason: v.nullable(v.picklist(SURVEY_REASONS)),
  attempt_id: v.nullable(wholeNumber),
  channel: v.nullable(v.picklist(CHANNELS)),
  /** When the provider accepted the message, and its id for the message (both once sent). */
  sent_at: v.optional(instant),
  message_id: v.optional(v.string()),
  /** Why a `failed` attempt failed: the provider's error name (never its words, which may name the address). */
  detail: v.optional(v.string()),
  /** When its links lapse: set when the first attempt is sent. */
  expires_at: v.optional(instant),
});
export type Survey = v.InferOutput<typeof Survey>;

/**
 * One attempt of the survey: `pending` until the one before it is sent, `scheduled` once its time is known, then
 * `sent` or `failed`; `skipped` when its channel cannot reach the customer; `cancelled` when the survey was answered,
 * expired or refused before it went out.
 */
export const ATTEMPT_STATUSES = ['pending', 'scheduled', 'sent', 'failed', 'skipped', 'cancelled'] as const;
export const Attempt = v.object({
  attempt_id: wholeNumber,
  channel: v.picklist(CHANNELS),
  status: v.picklist(ATTEMPT_STATUSES),
  /** When it goes out (quiet hours may move it); null while the attempt before it has not been sent. */
  due_at: v.nullable(instant),
  sent_at: v.optional(instant),
});
export type Attempt = v.InferOutput<typeof Attempt>;

export const Transaction = v.object({
  id: wholeNumber,
  transaction_id: transactionCode,
  journey_id: wholeNumber,
  store_id: wholeNumber,
  employee_id: wholeNumber,
  customer_id: wholeNumber,
  amount: v.nullable(v.number()),
  register_date: v.nullable(v.string()),
  params: v.record(v.string(), v.union([v.string(), v.number(), v.boolean()])),
  rating: v.nullable(v.object({ score: v.number(), comment: v.nullable(v.string()) })),
  rating_items: v.array(v.object({ class_id: wholeNumber, score: v.number() })),
  survey: Survey,
  /** Every attempt of the survey, in order (transactions registered before attempts existed have none). */
  attempts: v.optional(v.array(Attempt), []),
  created_at: instant,
});
export type Transaction = v.InferOutput<typeof Transaction>;

/**
 * The recovery survey of a transaction ("Did we solve it?"): asked once, when a case about its answer was resolved
 * (`shared/recovery/`). `scheduled` -> `sent` -> `answered`, or `failed` (its one attempt could not go out), or
 * `not_sent` from the start (the customer opted out, or no channel reaches them). It holds no personal data: the
 * contact is read from the transaction's own copies when it is sent, so erasure and retention reach it through them.
 */
export const RECOVERY_STATUSES = ['scheduled', 'sent', 'answered', 'failed', 'not_sent'] as const;
export const RecoverySurvey = v.object({
  /** The case whose resolution asked it. */
  case_id: v.string(),
  status: v.picklist(RECOVERY_STATUSES),
  reason: v.nullable(v.picklist(SURVEY_REASONS)),
  channel: v.nullable(v.string()),
  requested_at: instant,
  /** The UTC day (YYYY-MM-DD) the case was opened: the day its counts, this answer's too, belong to. */
  case_opened_on: v.string(),
  sent_at: v.optional(instant),
  message_id: v.optional(v.string()),
  /** When its link lapses: set when it is sent. */
  expires_at: v.optional(instant),
  answered_at: v.optional(instant),
  /** The customer's answer: whether the case solved it, and the new score they gave (optional). */
  recovered: v.optional(v.boolean()),
  score: v.optional(v.nullable(v.number())),
});
export type RecoverySurvey = v.InferOutput<typeof RecoverySurvey>;

/** Where an answer came from and when: kept with the rating it set (a rating sent with the transaction is source `api`). */
export interface AnswerOrigin {
  source: SourceName;
  /** The numeric source code the legacy interface uses. */
  src: number;
  answeredAt: string;
  /**
   * 1 when the answer was counted in the results, one more at each correction (a correction's condition, so that
   * two at once cannot both move the counts); absent for answers recorded before results were counted.
   */
  version?: number;
}

/** A transaction as the service keeps it: the resource, and what its survey and evaluation need beside it. */
export interface TransactionRecord {
  transaction: Transaction;
  journeySlug: string;
  customerName: string | null;
  /** The phone (E.164) or e-mail address attempt 1 goes to, when a survey is scheduled. */
  surveyContact: string | null;
  /** The addresses later attempts may use: a phone for whatsapp, sms and ura, an e-mail address for email. */
  surveyContacts: { phone: string | null; email: string | null };
  /** Each attempt's wait in minutes after the one before it was sent (by attempt, in order). */
  attemptWaits: number[];
  /** What was accepted but not stored as sent. */
  warnings: FieldProblem[];
  /** Set once the transaction is rated. */
  answer: AnswerOrigin | null;
  /** The tenant's retention when it was registered: its personal copies go this many days after it, and after each answer. */
  retentionDays: number | null;
  /** Its customer was erased, or its personal copies expired: no survey attempt goes out any more. */
  contactGone: boolean;
  /** Its customer was erased: it takes no answer any more. */
  erased: boolean;
  /** The survey's language, chosen when it was registered (customer, journey, tenant); absent on older ones: pt-BR. */
  locale?: Locale;
  /** Its recovery survey, once a case about its answer was resolved. */
  recovery?: RecoverySurvey;
}
