import { answer, problem } from '../../shared/http/contract.js';
import { Store } from '../../shared/stores/schema.js';
import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';
import { storeService } from '../../shared/adapters/wiring/stores.js';

export const contract = { path: IdPath, responses: { 200: answer('The store', Store), 404: problem('No such store') } };

export const handler = httpHandler(contract, async ({ tenantId, path }) => ({
  status: 200,
  body: await storeService.getStore(tenantId, path.id),
}));
