import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { CreateStoreBody } from '../../shared/stores/requests.js';
import { Store } from '../../shared/stores/schema.js';
import { storeEdits } from '../../shared/adapters/wiring/stores.js';

export const contract = {
  body: CreateStoreBody,
  // A region the configuration does not have (`region`): the request is well formed, the configuration refuses it.
  statuses: { 'state-conflict': 422 },
  responses: {
    201: answer('The created store', Store),
    400: problem('Invalid parameters, or a store_id that exists'),
    422: problem('No such region (errors names `region`)'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, body, actor }) => ({
  status: 201,
  body: await storeEdits.createStore(tenantId, body, actor),
}));
