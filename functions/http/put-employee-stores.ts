import { answer, dataOf, problem } from '../../shared/http/contract.js';
import { Store } from '../../shared/stores/schema.js';
import { EmployeeStoresBody } from '../../shared/employees/requests.js';
import { employeeService } from '../../shared/adapters/wiring/employees.js';
import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';

/** Replaces the links; the user token must cover every store added or removed (else 401). */
export const contract = {
  user: 'any' as const,
  path: IdPath,
  body: EmployeeStoresBody,
  responses: {
    200: answer('The stores now linked', dataOf(Store)),
    400: problem('Invalid parameters'),
    401: problem('The user token does not cover every store added or removed'),
    404: problem('No such employee or store'),
    409: problem('Edited concurrently; try again'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, path, body, user }) => {
  const { scope } = await user();
  return {
    status: 200,
    body: { data: await employeeService.replaceRelation(tenantId, { id: path.id, relation: 'stores', wanted: body.stores, scope }) },
  };
});
