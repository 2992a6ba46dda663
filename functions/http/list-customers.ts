import { ListCustomersQuery } from '../../shared/customers/schema.js';
import { listCustomers } from '../../shared/customers/service.js';
import { httpHandler } from '../../shared/http/handler.js';
import { resolveUser } from '../../shared/tenants/service.js';

/** Seed 4.1 and 5.2: the list needs a user token; invalid parameters answer 422. */
export const handler = httpHandler({ query: ListCustomersQuery, statuses: { validation: 422 } }, async ({ tenantId, query, userToken }) => {
  await resolveUser(tenantId, userToken);
  return { status: 200, body: await listCustomers(tenantId, query) };
});
