import { httpHandler } from '../../shared/http/handler.js';
import { ListStoresQuery } from '../../shared/stores/schema.js';
import { listStores } from '../../shared/stores/service.js';

/** Seed 4.2: invalid list parameters answer 422. */
export const handler = httpHandler({ query: ListStoresQuery, statuses: { validation: 422 } }, async ({ tenantId, query }) => ({
  status: 200,
  body: await listStores(tenantId, query),
}));
