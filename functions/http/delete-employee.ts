import { deactivateEmployee } from '../../shared/employees/service.js';
import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';

/** Seed 4.3: deactivating an unknown employee answers 422. */
export const handler = httpHandler({ path: IdPath, statuses: { 'not-found': 422 } }, async ({ tenantId, path }) => ({
  status: 200,
  body: await deactivateEmployee(tenantId, path.id),
}));
