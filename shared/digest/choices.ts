/** A user's choice of digest is the user record's (shared/access/digest-choice.ts); the tenant's digests, its slice of the configuration (config.ts). */
export { DEFAULT_DIGEST, DIGEST_CHOICES, type DigestChoice } from '../access/digest-choice.js';
export { DIGESTS_DEFAULTS, DigestsConfig } from './config.js';
