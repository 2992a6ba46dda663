import { httpHandler } from '../../shared/http/handler.js';
import { CreateStoreBody } from '../../shared/stores/schema.js';
import { createStore } from '../../shared/stores/service.js';

export const handler = httpHandler({ body: CreateStoreBody }, async ({ tenantId, body }) => ({
  status: 201,
  body: await createStore(tenantId, body),
}));
