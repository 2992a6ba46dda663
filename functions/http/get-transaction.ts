import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';
import { getTransaction } from '../../shared/transactions/service.js';

export const handler = httpHandler({ path: IdPath }, async ({ tenantId, path }) => ({
  status: 200,
  body: await getTransaction(tenantId, path.id),
}));
