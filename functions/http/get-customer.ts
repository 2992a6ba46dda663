import { answer, problem } from '../../shared/http/contract.js';
import { Customer } from '../../shared/customers/schema.js';
import { getCustomer } from '../../shared/adapters/wiring/customers.js';
import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';

export const contract = { path: IdPath, responses: { 200: answer('The customer', Customer), 404: problem('No such customer') } };

export const handler = httpHandler(contract, async ({ tenantId, path }) => ({
  status: 200,
  body: await getCustomer(tenantId, path.id),
}));
