import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { ExportDocument, PrivacyRequestPath } from '../../shared/privacy/schema.js';
import { PRIVACY_USER } from '../../shared/privacy/service.js';
import { accessService, privacyService } from '../../shared/adapters/wiring/privacy.js';

/**
 * The export of a done export request: everything the service keeps about each customer it found (the customer,
 * its transactions with their survey attempts, answers and comments, and the privacy requests that named it), read
 * when asked. Answers for 7 days after the request is done, then 410. Needs a user token with every store.
 */
export const contract = {
  user: PRIVACY_USER,
  path: PrivacyRequestPath,
  responses: {
    200: answer('The export document', ExportDocument),
    401: problem('No valid user token, or one limited to some stores'),
    404: problem('No such request in this tenant, or an erasure (which has no export)'),
    409: problem('The request is still pending'),
    410: problem('The export expired (7 days after the request was done)'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, path, user, keyId, requestId }) => {
  const { name } = await user();
  const document = await privacyService.exportOf(tenantId, path.id);
  const customerIds = document.customers.map(({ customer }) => Number(customer.id));
  await accessService.recordReads(tenantId, customerIds, {
    operation: 'getPrivacyExport',
    keyId,
    user: name,
    requestId,
    at: document.generated_at,
  });
  return { status: 200, body: document };
});
