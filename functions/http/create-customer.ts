import { CreateCustomerBody } from '../../shared/customers/schema.js';
import { createCustomer } from '../../shared/customers/service.js';
import { httpHandler } from '../../shared/http/handler.js';

/** Seed 4.1: a create answers 200. */
export const handler = httpHandler({ body: CreateCustomerBody }, async ({ tenantId, body }) => ({
  status: 200,
  body: await createCustomer(tenantId, body),
}));
