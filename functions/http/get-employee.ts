import { answer, problem } from '../../shared/http/contract.js';
import { Employee } from '../../shared/employees/schema.js';
import { employeeService } from '../../shared/adapters/wiring/employees.js';
import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';

export const contract = { path: IdPath, responses: { 200: answer('The employee', Employee), 404: problem('No such employee') } };

export const handler = httpHandler(contract, async ({ tenantId, path }) => ({
  status: 200,
  body: await employeeService.getEmployee(tenantId, path.id),
}));
