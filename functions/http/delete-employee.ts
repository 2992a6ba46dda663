import { answer, problem } from '../../shared/http/contract.js';
import { Employee } from '../../shared/employees/schema.js';
import { employeeService } from '../../shared/adapters/wiring/employees.js';
import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';

/** Deactivating an unknown employee answers 422 (the interface's status), not 404. */
export const contract = {
  path: IdPath,
  statuses: { 'not-found': 422 },
  responses: { 200: answer('The deactivated employee', Employee), 422: problem('No such employee') },
};

export const handler = httpHandler(contract, async ({ tenantId, path }) => ({
  status: 200,
  body: await employeeService.deactivateEmployee(tenantId, path.id),
}));
