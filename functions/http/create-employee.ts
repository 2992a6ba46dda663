import { CreateEmployeeBody } from '../../shared/employees/schema.js';
import { createEmployee } from '../../shared/employees/service.js';
import { httpHandler } from '../../shared/http/handler.js';

/** Seed 4.3: a create answers 200. */
export const handler = httpHandler({ body: CreateEmployeeBody }, async ({ tenantId, body }) => ({
  status: 200,
  body: await createEmployee(tenantId, body),
}));
