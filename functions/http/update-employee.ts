import { UpdateEmployeeBody } from '../../shared/employees/schema.js';
import { editEmployee } from '../../shared/employees/service.js';
import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';

/** Seed 4.3: invalid parameters of an edit answer 422. */
export const handler = httpHandler(
  { path: IdPath, body: UpdateEmployeeBody, statuses: { validation: 422, 'malformed-json': 422, conflict: 422 } },
  async ({ tenantId, path, body }) => ({ status: 200, body: await editEmployee(tenantId, path.id, body) }),
);
