import { employeeStores } from '../../shared/employees/service.js';
import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';

export const handler = httpHandler({ path: IdPath }, async ({ tenantId, path }) => ({
  status: 200,
  body: { data: await employeeStores(tenantId, path.id) },
}));
