import { answer, problem } from '../../shared/http/contract.js';
import { CreateCustomerBody } from '../../shared/customers/requests.js';
import { CreatedCustomerBody } from '../../shared/customers/schema.js';
import { customerService } from '../../shared/adapters/wiring/customers.js';
import { httpHandler } from '../../shared/http/handler.js';

/** Creating a customer answers 200 (the interface's status, unlike stores' 201). */
export const contract = {
  body: CreateCustomerBody,
  responses: {
    200: answer('The created customer, with warnings about what was ignored', CreatedCustomerBody),
    400: problem('Invalid parameters, or a client_id that exists'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, body }) => ({
  status: 200,
  body: await customerService.createCustomer(tenantId, body),
}));
