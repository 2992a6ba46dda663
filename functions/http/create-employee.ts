import { answer, problem } from '../../shared/http/contract.js';
import { CreateEmployeeBody } from '../../shared/employees/requests.js';
import { Employee } from '../../shared/employees/schema.js';
import { employeeService } from '../../shared/adapters/wiring/employees.js';
import { httpHandler } from '../../shared/http/handler.js';

/** Creating an employee answers 200 (the interface's status, unlike stores' 201). */
export const contract = {
  body: CreateEmployeeBody,
  responses: { 200: answer('The created employee', Employee), 400: problem('Invalid parameters, or an employee_id that exists') },
};

export const handler = httpHandler(contract, async ({ tenantId, body }) => ({
  status: 200,
  body: await employeeService.createEmployee(tenantId, body),
}));
