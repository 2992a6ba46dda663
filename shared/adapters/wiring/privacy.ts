import { ENV, requireEnvs, wire } from '../../config.js';
import * as access from '../../privacy/access.js';
import { boundOpenRequests } from '../../privacy/open-requests.js';
import { sweepExpired } from '../../privacy/retention.js';
import * as privacy from '../../privacy/service.js';
import { accessLog } from '../access-log.js';
import { personalExpiry } from '../personal-expiry.js';
import { dataSubjects, privacyRequests } from '../privacy-repository.js';
import { privacySlots } from '../privacy-slots.js';
import { sendMessage } from '../sqs.js';
import { analyticsChainsService } from './analytics.js';

/** Who read which customer's personal data, and when: written by every read that answers it. */
export const accessService = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return access.accessService(accessLog);
});

/** Privacy requests over the tenant's customers and transactions; the worker's also writes analytics days again. */
const privacyOf = (analytics?: privacy.PrivacyPorts['analytics']) =>
  privacy.privacyService({
    requests: privacyRequests,
    subjects: dataSubjects,
    queue: { send: async (message, delaySeconds) => void (await sendMessage('privacy', message, delaySeconds)) },
    recheckSeconds: privacy.erasureRecheckSeconds(process.env[ENV.erasureRecheckSeconds]),
    ...(analytics ? { analytics } : {}),
  });

/** Privacy requests: kept in the table, worked on from the privacy queue, over the tenant's customers and transactions. */
export const privacyService = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return privacyOf();
});

/**
 * The privacy queue's worker: the requests' service, which also begins writing again the analytics days an erasure
 * reached (a chain of the analytics queue, whose end completes the request).
 */
export const privacyWorker = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return privacyOf(analyticsChainsService);
});

/** A new request, refused (429) while the tenant has MAX_OPEN_PRIVACY_REQUESTS pending. */
export const submitPrivacyRequest = /* @__PURE__ */ wire(() =>
  boundOpenRequests({ slots: privacySlots, requests: privacyRequests }, privacyService.submit),
);

/** One run of the retention sweep over the table, until `timeLeft` runs short. */
export const expirePersonalCopies = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return (timeLeft: () => number, now = new Date()) => sweepExpired(personalExpiry, now, timeLeft);
});
