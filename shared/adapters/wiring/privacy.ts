import { ENV, requireEnvs } from '../../config.js';
import { boundOpenRequests } from '../../privacy/open-requests.js';
import { erasureRecheckSeconds, privacyService } from '../../privacy/service.js';
import { dataSubjects, privacyRequests } from '../privacy-repository.js';
import { privacySlots } from '../privacy-slots.js';
import { sendMessage } from '../sqs.js';

requireEnvs(ENV.tableName);

/** Privacy requests: kept in the table, worked on from the privacy queue, over the tenant's customers and transactions. */
export const privacy = privacyService({
  requests: privacyRequests,
  subjects: dataSubjects,
  queue: { send: async (message, delaySeconds) => void (await sendMessage('privacy', message, delaySeconds)) },
  recheckSeconds: erasureRecheckSeconds(process.env[ENV.erasureRecheckSeconds]),
});

/** A new request, refused (429) while the tenant has MAX_OPEN_PRIVACY_REQUESTS pending. */
export const submitPrivacyRequest = boundOpenRequests({ slots: privacySlots, requests: privacyRequests }, privacy.submit);
