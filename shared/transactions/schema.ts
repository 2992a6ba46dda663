import * as v from 'valibot';

// ---- The stored transaction -------------------------------------------------------------------------------------

/**
 * A survey attempt's life: `scheduled` -> `sent` -> `answered`, or `failed` (the provider refused the contact),
 * or `not_sent` from the start. An answer may arrive while the attempt is still `scheduled` (through the chatbot).
 */
export const SURVEY_STATUSES = ['scheduled', 'sent', 'answered', 'failed', 'not_sent'] as const;
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
  /** The provider's words for a `failed` attempt. */
  detail: v.optional(v.string()),
});
export type Survey = v.InferOutput<typeof Survey>;

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
