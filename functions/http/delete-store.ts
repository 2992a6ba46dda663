import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';
import { deactivateStore } from '../../shared/stores/service.js';

export const handler = httpHandler({ path: IdPath }, async ({ tenantId, path }) => ({
  status: 200,
  body: await deactivateStore(tenantId, path.id),
}));
