import { answer, problem } from '../../shared/http/contract.js';
import { Customer } from '../../shared/customers/schema.js';
import { customerService } from '../../shared/adapters/wiring/customers.js';
import { accessService } from '../../shared/adapters/wiring/privacy.js';
import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';

export const contract = { path: IdPath, responses: { 200: answer('The customer', Customer), 404: problem('No such customer') } };

export const handler = httpHandler(contract, async ({ tenantId, path, keyId, requestId }) => {
  const customer = await customerService.getCustomer(tenantId, path.id);
  await accessService.recordReads(tenantId, [customer.id], { operation: 'getCustomer', keyId, user: null, requestId });
  return { status: 200, body: customer };
});
