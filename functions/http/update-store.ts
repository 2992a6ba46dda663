import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';
import { UpdateStoreBody } from '../../shared/stores/schema.js';
import { editStore } from '../../shared/stores/service.js';

/** Seed 4.2: an edit answers 202. */
export const handler = httpHandler({ path: IdPath, body: UpdateStoreBody }, async ({ tenantId, path, body }) => ({
  status: 202,
  body: await editStore(tenantId, path.id, body),
}));
