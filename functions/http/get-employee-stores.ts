import { answer, dataOf, problem } from '../../shared/http/contract.js';
import { Store } from '../../shared/stores/schema.js';
import { employeeService } from '../../shared/adapters/wiring/employees.js';
import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';

export const contract = {
  path: IdPath,
  responses: { 200: answer('The stores linked to the employee', dataOf(Store)), 404: problem('No such employee') },
};

export const handler = httpHandler(contract, async ({ tenantId, path }) => ({
  status: 200,
  body: { data: await employeeService.employeeStores(tenantId, path.id) },
}));
