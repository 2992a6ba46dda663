import * as v from 'valibot';

/** A user's choice of digest (the users API, the user record): weekly unless they chose daily or none. */
export const DIGEST_CHOICES = ['weekly', 'daily', 'off'] as const;
export type DigestChoice = (typeof DIGEST_CHOICES)[number];
export const DEFAULT_DIGEST: DigestChoice = 'weekly';

/** The tenant's digests (`digests` in its configuration): the daily one is off until it turns it on. */
export const DIGESTS_DEFAULTS = { daily: false };
export const DigestsConfig = v.strictObject({
  /** Whether the users who chose `daily` get a digest of yesterday every morning too. */
  daily: v.optional(v.boolean('must be true or false'), DIGESTS_DEFAULTS.daily),
});
export type DigestsConfig = v.InferOutput<typeof DigestsConfig>;
