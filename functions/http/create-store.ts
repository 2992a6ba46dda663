import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { CreateStoreBody } from '../../shared/stores/requests.js';
import { Store } from '../../shared/stores/schema.js';
import { storeService } from '../../shared/adapters/wiring/stores.js';

export const contract = {
  body: CreateStoreBody,
  responses: { 201: answer('The created store', Store), 400: problem('Invalid parameters, or a store_id that exists') },
};

export const handler = httpHandler(contract, async ({ tenantId, body }) => ({
  status: 201,
  body: await storeService.createStore(tenantId, body),
}));
