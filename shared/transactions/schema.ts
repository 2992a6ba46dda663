import * as v from 'valibot';

// ---- The stored transaction -------------------------------------------------------------------------------------

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
  attempt_id: v.nullable(v.number()),
  channel: v.nullable(v.string()),
  /** When the provider accepted the message, and its id for the message (both once sent). */
  sent_at: v.optional(v.string()),
  message_id: v.optional(v.string()),
  /** Why a `failed` attempt failed: the provider's error name (never its words, which may name the address). */
  detail: v.optional(v.string()),
  /** When its links lapse: set when the first attempt is sent. */
  expires_at: v.optional(v.string()),
});
export type Survey = v.InferOutput<typeof Survey>;

/**
 * One attempt of the survey: `pending` until the one before it is sent, `scheduled` once its time is known, then
 * `sent` or `failed`; `skipped` when its channel cannot reach the customer; `cancelled` when the survey was answered,
 * expired or refused before it went out.
 */
export const ATTEMPT_STATUSES = ['pending', 'scheduled', 'sent', 'failed', 'skipped', 'cancelled'] as const;
export const Attempt = v.object({
  attempt_id: v.number(),
  channel: v.string(),
  status: v.picklist(ATTEMPT_STATUSES),
  /** When it goes out (quiet hours may move it); null while the attempt before it has not been sent. */
  due_at: v.nullable(v.string()),
  sent_at: v.optional(v.string()),
});
export type Attempt = v.InferOutput<typeof Attempt>;

export const Transaction = v.object({
  id: v.number(),
  transaction_id: v.nullable(v.string()),
  journey_id: v.number(),
  store_id: v.number(),
  employee_id: v.number(),
  customer_id: v.number(),
  amount: v.nullable(v.number()),
  register_date: v.nullable(v.string()),
  params: v.record(v.string(), v.union([v.string(), v.number(), v.boolean()])),
  rating: v.nullable(v.object({ score: v.number(), comment: v.nullable(v.string()) })),
  rating_items: v.array(v.object({ class_id: v.number(), score: v.number() })),
  survey: Survey,
  /** Every attempt of the survey, in order (transactions registered before attempts existed have none). */
  attempts: v.optional(v.array(Attempt), []),
  created_at: v.string(),
});
export type Transaction = v.InferOutput<typeof Transaction>;

/** The legacy interface names the fields of a rejection its own way. */
const LEGACY_PATHS: [RegExp, string][] = [
  [/^transaction\.journeyId$/, 'journey_id'],
  [/^transaction\.journeySlug$/, 'journey'],
  [/^ratingItems\[(\d+)\]\.classId$/, 'rating_items[$1].class_id'],
  [/^ratingItems\[(\d+)\]\./, 'rating_items[$1].'],
  [/^store$/, 'store_id'],
  [/^store\.externalId$/, 'store_integration'],
  [/^employee\.externalId$/, 'employee_integration'],
  [/^customer\.externalId$/, 'customer_integration'],
  [/^customer\.id$/, 'customer_id'],
  [/^customer\.birthDate$/, 'birth_date'],
  [/^rating\.score$/, 'score'],
];
export const toLegacyPath = (path: string) => LEGACY_PATHS.reduce((p, [pattern, name]) => p.replace(pattern, name), path);

/** What GET /v2/transactions/requests/{requestId} answers. */
export const RequestOutcomeBody = v.object({
  requestId: v.string(),
  status: v.picklist(['pending', 'created', 'rejected', 'failed']),
  transactionId: v.nullable(v.number()),
  errors: v.array(v.object({ path: v.string(), message: v.string() })),
  warnings: v.array(v.object({ path: v.string(), message: v.string() })),
});
