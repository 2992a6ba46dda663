import { EXPORT_CLAIM_SECONDS, type ExportClaims } from '../analytics/schedule.js';
import { keys } from '../keys.js';
import { onceClaims } from './once-claims.js';

/** A claim is kept this long after its day, then the table's TTL removes it (a timer lives two days: DUE_TTL_DAYS). */
const CLAIM_TTL_DAYS = 7;

/**
 * One scheduled write per tenant and day: an item per day (`ANALYTICS_CLAIM`), claimed before the write. A claim older
 * than EXPORT_CLAIM_SECONDS is a crash's and may be taken again; once done, never (an erasure or the admin command
 * writes a day again without it).
 */
const once = /* @__PURE__ */ onceClaims({
  entity: 'ANALYTICS_CLAIM',
  staleSeconds: EXPORT_CLAIM_SECONDS,
  finished: { state: 'done', at: 'doneAt' },
});

export const analyticsClaims: ExportClaims = {
  claim: (tenantId, day, now) =>
    once.claim(keys.analyticsClaim(tenantId, day), now, Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + CLAIM_TTL_DAYS * 86_400),
  done: (tenantId, day, now) => once.finish(keys.analyticsClaim(tenantId, day), now),
  release: (tenantId, day, now) => once.release(keys.analyticsClaim(tenantId, day), now),
};
