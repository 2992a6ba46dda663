import * as v from 'valibot';
import { wholeNumber } from '../schema.js';

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
  transactionId: v.nullable(wholeNumber),
  errors: v.array(v.object({ path: v.string(), message: v.string() })),
  warnings: v.array(v.object({ path: v.string(), message: v.string() })),
});
