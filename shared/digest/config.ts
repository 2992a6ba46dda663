import * as v from 'valibot';
import { flag } from '../settings/fields.js';

/** The tenant's digests (`digests` in its configuration): the daily one is off until it turns it on. */
export const DIGESTS_DEFAULTS = { daily: false } as const;
export const DigestsConfig = v.strictObject({
  /** Whether the users who chose `daily` get a digest of yesterday every morning too. */
  daily: flag(DIGESTS_DEFAULTS.daily),
});
export type DigestsConfig = v.InferOutput<typeof DigestsConfig>;

declare module '../settings/settings.js' {
  interface Settings {
    /** Absent: DIGESTS_DEFAULTS. */
    digests?: DigestsConfig;
  }
}
