import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';
import { UpdateStoreBody } from '../../shared/stores/requests.js';
import { Store } from '../../shared/stores/schema.js';
import { storeEdits } from '../../shared/adapters/wiring/stores.js';

/** Editing a store answers 202 (the interface's status). */
export const contract = {
  path: IdPath,
  body: UpdateStoreBody,
  statuses: { 'state-conflict': 422 },
  responses: {
    202: answer('The edited store', Store),
    400: problem('Invalid parameters'),
    404: problem('No such store'),
    422: problem('No such region (errors names `region`)'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, path, body, actor }) => ({
  status: 202,
  body: await storeEdits.editStore(tenantId, { id: path.id, changes: body, actor }),
}));
