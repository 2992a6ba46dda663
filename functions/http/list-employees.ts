import { ListEmployeesQuery } from '../../shared/employees/schema.js';
import { listEmployees } from '../../shared/employees/service.js';
import { httpHandler } from '../../shared/http/handler.js';

export const handler = httpHandler({ query: ListEmployeesQuery, statuses: { validation: 422 } }, async ({ tenantId, query }) => ({
  status: 200,
  body: await listEmployees(tenantId, query),
}));
