import { answer, dataOf, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { AccessBody, AccessQuery } from '../../shared/privacy/access.js';
import { PRIVACY_USER } from '../../shared/privacy/service.js';
import { accessService } from '../../shared/adapters/wiring/privacy.js';

/**
 * Who read a customer's personal data through the API (getCustomer, listCustomers, getPrivacyExport): when, which
 * key and user, which request. Newest first, kept a year; `before` pages back. Needs a user token with every store.
 */
export const contract = {
  user: PRIVACY_USER,
  query: AccessQuery,
  statuses: { validation: 422 },
  responses: {
    200: answer('The reads of the customer, newest first', dataOf(AccessBody)),
    401: problem('No valid user token, or one limited to some stores'),
    422: problem('Invalid parameters'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, query }) => ({
  status: 200,
  body: await accessService.readsOf(tenantId, query),
}));
