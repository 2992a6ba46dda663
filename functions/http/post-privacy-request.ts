import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { PrivacyRequestBody, PrivacyRequestView } from '../../shared/privacy/schema.js';
import { PRIVACY_USER } from '../../shared/privacy/service.js';
import { submitPrivacyRequest } from '../../shared/adapters/wiring/privacy.js';

/**
 * A data subject's request under the LGPD: a copy of their data (export) or its deletion (erase), naming them by
 * cpf, e-mail, phone or client_id. Accepted at once (202) and worked on from a queue; GET …/requests/{id} follows it.
 * Needs a user token with access to every store. Beyond the tenant's bound of pending requests it answers 429
 * problem+json with Retry-After (shared/privacy/open-requests.ts), beside API Gateway's own 429 over the rate.
 */
export const contract = {
  user: PRIVACY_USER,
  body: PrivacyRequestBody,
  statuses: { validation: 422 },
  responses: {
    202: answer('Accepted: the request, pending', PrivacyRequestView),
    401: problem('No valid user token, or one limited to some stores'),
    422: problem('Invalid body (a type, and at least one identifier)'),
    429: problem('The tenant already has its most pending requests (50): try again after Retry-After seconds', ['Retry-After']),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, body, user }) => ({
  status: 202,
  body: await submitPrivacyRequest(tenantId, body, (await user()).name),
}));
