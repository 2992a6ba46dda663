import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { PrivacyRequestPath, PrivacyRequestView } from '../../shared/privacy/schema.js';
import { PRIVACY_USER } from '../../shared/privacy/service.js';
import { privacyService } from '../../shared/adapters/wiring/privacy.js';

/**
 * A privacy request: pending (an erasure until its second pass, ERASURE_RECHECK_SECONDS after its first), done (with
 * the customers it found) or failed. Needs a user token with every store.
 */
export const contract = {
  user: PRIVACY_USER,
  path: PrivacyRequestPath,
  responses: {
    200: answer('The request', PrivacyRequestView),
    401: problem('No valid user token, or one limited to some stores'),
    404: problem('No such request in this tenant'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, path }) => ({
  status: 200,
  body: await privacyService.get(tenantId, path.id),
}));
