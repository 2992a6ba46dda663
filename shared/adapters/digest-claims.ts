import { DIGEST_CLAIM_SECONDS, type DigestClaims } from '../digest/sending.js';
import { keys } from '../keys.js';
import { onceClaims } from './once-claims.js';

/** A claim is kept this long after its period, then the table's TTL removes it (a late retry is long over). */
const CLAIM_TTL_DAYS = 40;

/**
 * One digest per user and period: an item per user and period (`DIGEST_CLAIM`), claimed before the e-mail. A claim
 * older than DIGEST_CLAIM_SECONDS is a crash's and may be taken again; once sent, never.
 */
const once = /* @__PURE__ */ onceClaims({
  entity: 'DIGEST_CLAIM',
  staleSeconds: DIGEST_CLAIM_SECONDS,
  finished: { state: 'sent', at: 'sentAt' },
});

export const digestClaims: DigestClaims = {
  claim: (tenantId, { user, period, from }, now) =>
    once.claim(
      keys.digestClaim(tenantId, user, period, from),
      now,
      Math.floor(Date.parse(`${from}T00:00:00Z`) / 1000) + CLAIM_TTL_DAYS * 86_400,
    ),
  sent: (tenantId, { user, period, from }, now) => once.finish(keys.digestClaim(tenantId, user, period, from), now),
  release: (tenantId, { user, period, from }, now) => once.release(keys.digestClaim(tenantId, user, period, from), now),
};
