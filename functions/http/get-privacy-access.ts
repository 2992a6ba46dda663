import * as v from 'valibot';
import { answer, dataOf, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { requireEveryStore } from '../../shared/privacy/service.js';
import { integerString, MAX_INT_ID } from '../../shared/schema.js';
import { accessLog } from '../../shared/adapters/wiring/access-log.js';
import { resolveUser } from '../../shared/adapters/wiring/tenants.js';

const Query = v.strictObject({
  customer: integerString(1, MAX_INT_ID),
  limit: v.optional(integerString(1, 100), '50'),
  before: v.optional(v.pipe(v.string(), v.isoTimestamp('must be a timestamp (the at of the last entry of the previous page)'))),
});

const AccessBody = v.object({
  at: v.string(),
  operation: v.string(),
  key_id: v.nullable(v.string()),
  user: v.nullable(v.string()),
  request_id: v.string(),
});

/**
 * Who read a customer's personal data through the API (getCustomer, listCustomers, getPrivacyExport): when, which
 * key and user, which request. Newest first, kept a year; `before` pages back. Needs a user token with every store.
 */
export const contract = {
  userToken: true as const,
  query: Query,
  statuses: { validation: 422 },
  responses: {
    200: answer('The reads of the customer, newest first', dataOf(AccessBody)),
    401: problem('No valid user token, or one limited to some stores'),
    422: problem('Invalid parameters'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, query, userToken }) => {
  requireEveryStore(await resolveUser(tenantId, userToken));
  const entries = await accessLog.list(tenantId, query.customer, query.limit, query.before);
  return {
    status: 200,
    body: {
      data: entries.map((entry) => ({
        at: entry.at,
        operation: entry.operation,
        key_id: entry.keyId,
        user: entry.user,
        request_id: entry.requestId,
      })),
    },
  };
});
