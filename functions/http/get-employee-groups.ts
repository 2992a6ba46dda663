import { answer, dataOf, problem } from '../../shared/http/contract.js';
import { Group } from '../../shared/tenants/config-schema.js';
import { employeeService } from '../../shared/adapters/wiring/employees.js';
import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';

export const contract = {
  path: IdPath,
  responses: { 200: answer('The groups linked to the employee', dataOf(Group)), 404: problem('No such employee') },
};

export const handler = httpHandler(contract, async ({ tenantId, path }) => ({
  status: 200,
  body: { data: await employeeService.employeeGroups(tenantId, path.id) },
}));
