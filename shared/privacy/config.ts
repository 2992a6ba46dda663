import * as v from 'valibot';
import { PRIVACY_DEFAULTS } from '../settings/scales.js';

/** A tenant's privacy settings. */
export const PrivacyConfig = v.strictObject({
  /**
   * Days after which what a transaction copied of its customer (name, survey contacts) and its answer's comment and
   * chatbot respondent are removed, counted from the transaction and again from each answer; none when null.
   */
  retentionDays: v.optional(
    v.nullable(
      v.pipe(
        v.number('must be a number'),
        v.integer('must be an integer'),
        v.minValue(1, 'must be at least 1'),
        v.maxValue(3650, 'must be at most 3650'),
      ),
    ),
    PRIVACY_DEFAULTS.retentionDays,
  ),
});
export type PrivacyConfig = v.InferOutput<typeof PrivacyConfig>;

declare module '../settings/settings.js' {
  interface Settings {
    /** Absent: no retention. */
    privacy?: PrivacyConfig;
  }
}
