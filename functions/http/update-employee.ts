import { answer, problem } from '../../shared/http/contract.js';
import { UpdateEmployeeBody } from '../../shared/employees/requests.js';
import { Employee } from '../../shared/employees/schema.js';
import { employeeService } from '../../shared/adapters/wiring/employees.js';
import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';

/** Invalid parameters of an employee edit answer 422 (the interface's status). */
export const contract = {
  path: IdPath,
  body: UpdateEmployeeBody,
  statuses: { validation: 422, 'malformed-json': 422, conflict: 422 },
  responses: { 200: answer('The edited employee', Employee), 404: problem('No such employee'), 422: problem('Invalid parameters') },
};

export const handler = httpHandler(contract, async ({ tenantId, path, body }) => ({
  status: 200,
  body: await employeeService.editEmployee(tenantId, path.id, body),
}));
