/**
 * The path of a digest's unsubscribe page, as data (the route table, the e-mail's link and header): its token is the
 * credential, signed, naming no one (shared/digest/unsubscribe.ts).
 */
const DIGEST_PREFIX = '/d/';
const UNSUBSCRIBE_SUFFIX = '/unsubscribe';

/** GET asks to confirm; POST stops the user's digests (the page's button, or RFC 8058 one-click). */
export const DIGEST_UNSUBSCRIBE_PATH = `${DIGEST_PREFIX}{token}${UNSUBSCRIBE_SUFFIX}`;

export const digestUnsubscribePath = (token: string) => `${DIGEST_PREFIX}${token}${UNSUBSCRIBE_SUFFIX}`;
