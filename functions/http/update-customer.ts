import { answer, problem } from '../../shared/http/contract.js';
import { UpdateCustomerBody } from '../../shared/customers/requests.js';
import { Customer } from '../../shared/customers/schema.js';
import { customerService } from '../../shared/adapters/wiring/customers.js';
import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';

/** Editing a customer answers 201 (the interface's status). */
export const contract = {
  path: IdPath,
  body: UpdateCustomerBody,
  responses: { 201: answer('The edited customer', Customer), 400: problem('Invalid parameters'), 404: problem('No such customer') },
};

export const handler = httpHandler(contract, async ({ tenantId, path, body }) => ({
  status: 201,
  body: await customerService.editCustomer(tenantId, path.id, body),
}));
