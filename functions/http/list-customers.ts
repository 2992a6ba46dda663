import { configuredSecret } from '../../shared/adapters/secrets.js';
import { ENV } from '../../shared/config.js';
import { answer, listOf, problem } from '../../shared/http/contract.js';
import { CUSTOMER_LIST_USER, ListCustomersQuery } from '../../shared/customers/requests.js';
import { Customer } from '../../shared/customers/schema.js';
import { customerService } from '../../shared/adapters/wiring/customers.js';
import { accessService } from '../../shared/adapters/wiring/privacy.js';
import { httpHandler } from '../../shared/http/handler.js';

// Its pages' cursors are sealed with the deployment's cursor secret.
await configuredSecret(ENV.cursorSecret);

/** The customer list needs a user token that sees every store (403 otherwise); invalid parameters answer 422. */
export const contract = {
  userTokenInQuery: true as const,
  user: CUSTOMER_LIST_USER,
  query: ListCustomersQuery,
  statuses: { validation: 422, forbidden: 403 },
  responses: {
    200: answer('A page of customers', listOf(Customer)),
    401: problem('No valid user token'),
    403: problem('A user token limited to some stores'),
    422: problem('Invalid parameters'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, query, user, keyId, requestId }) => {
  const [page, reader] = await Promise.all([customerService.listCustomers(tenantId, query), user()]);
  await accessService.recordReads(
    tenantId,
    page.data.map((customer) => customer.id),
    { operation: 'listCustomers', keyId, user: reader.name, requestId },
  );
  return { status: 200, body: page };
});
