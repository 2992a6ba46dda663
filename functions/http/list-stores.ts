import { configuredSecret } from '../../shared/adapters/secrets.js';
import { ENV } from '../../shared/config.js';
import { answer, listOf, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { ListStoresQuery } from '../../shared/stores/requests.js';
import { Store } from '../../shared/stores/schema.js';
import { storeService } from '../../shared/adapters/wiring/stores.js';

// Its pages' cursors are sealed with the deployment's cursor secret.
await configuredSecret(ENV.cursorSecret);

/** Invalid store list parameters answer 422. */
export const contract = {
  query: ListStoresQuery,
  statuses: { validation: 422 },
  responses: { 200: answer('A page of stores', listOf(Store)), 422: problem('Invalid parameters') },
};

export const handler = httpHandler(contract, async ({ tenantId, query }) => ({
  status: 200,
  body: await storeService.listStores(tenantId, query),
}));
