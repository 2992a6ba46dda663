import { configuredSecret } from '../../shared/adapters/secrets.js';
import { ENV } from '../../shared/config.js';
import { answer, listOf, problem } from '../../shared/http/contract.js';
import { ListEmployeesQuery } from '../../shared/employees/requests.js';
import { Employee } from '../../shared/employees/schema.js';
import { employeeService } from '../../shared/adapters/wiring/employees.js';
import { httpHandler } from '../../shared/http/handler.js';

// Its pages' cursors are sealed with the deployment's cursor secret.
await configuredSecret(ENV.cursorSecret);

export const contract = {
  query: ListEmployeesQuery,
  statuses: { validation: 422 },
  responses: { 200: answer('A page of employees', listOf(Employee)), 422: problem('Invalid parameters') },
};

export const handler = httpHandler(contract, async ({ tenantId, query }) => ({
  status: 200,
  body: await employeeService.listEmployees(tenantId, query),
}));
