import { UpdateCustomerBody } from '../../shared/customers/schema.js';
import { editCustomer } from '../../shared/customers/service.js';
import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';

/** Seed 4.1: an edit answers 201. */
export const handler = httpHandler({ path: IdPath, body: UpdateCustomerBody }, async ({ tenantId, path, body }) => ({
  status: 201,
  body: await editCustomer(tenantId, path.id, body),
}));
