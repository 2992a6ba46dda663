/** A user's choice of digest (the users API, the user record): weekly unless they chose daily or none. */
export const DIGEST_CHOICES = ['weekly', 'daily', 'off'] as const;
export type DigestChoice = (typeof DIGEST_CHOICES)[number];
export const DEFAULT_DIGEST: DigestChoice = 'weekly';
