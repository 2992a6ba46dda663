import * as v from 'valibot';
import { wholeNumber } from '../settings/fields.js';

/** What the privacy settings hold where they leave a field out, and the settings reader gives an item written before it. */
export const PRIVACY_DEFAULTS = { retentionDays: null } as const;

/** A tenant's privacy settings. */
export const PrivacyConfig = v.strictObject({
  /**
   * Days after which what a transaction copied of its customer (name, survey contacts) and its answer's comment and
   * chatbot respondent are removed, counted from the transaction and again from each answer; none when null.
   */
  retentionDays: v.optional(v.nullable(wholeNumber(1, 3650)), PRIVACY_DEFAULTS.retentionDays),
});
export type PrivacyConfig = v.InferOutput<typeof PrivacyConfig>;

declare module '../settings/settings.js' {
  interface Settings {
    /** Absent: no retention. */
    privacy?: PrivacyConfig;
  }
}
