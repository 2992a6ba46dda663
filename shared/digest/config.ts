import * as v from 'valibot';

/** The tenant's digests (`digests` in its configuration): the daily one is off until it turns it on. */
export const DIGESTS_DEFAULTS = { daily: false };
export const DigestsConfig = v.strictObject({
  /** Whether the users who chose `daily` get a digest of yesterday every morning too. */
  daily: v.optional(v.boolean('must be true or false'), DIGESTS_DEFAULTS.daily),
});
export type DigestsConfig = v.InferOutput<typeof DigestsConfig>;

declare module '../settings/settings.js' {
  interface Settings {
    /** Absent: DIGESTS_DEFAULTS. */
    digests?: DigestsConfig;
  }
}
