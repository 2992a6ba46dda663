import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';
import { getStore } from '../../shared/stores/service.js';

export const handler = httpHandler({ path: IdPath }, async ({ tenantId, path }) => ({
  status: 200,
  body: await getStore(tenantId, path.id),
}));
