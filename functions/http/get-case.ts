import { caseReads } from '../../shared/adapters/wiring/cases.js';
import { accessService } from '../../shared/adapters/wiring/privacy.js';
import { CaseBody } from '../../shared/cases/bodies.js';
import { CaseIdPath } from '../../shared/cases/schema.js';
import { answer, problem } from '../../shared/http/contract.js';
import { etagOf } from '../../shared/http/etag.js';
import { httpHandler } from '../../shared/http/handler.js';

/** One case, with its notes and history, for a user token whose scope holds its store (any other: 404). */
export const contract = {
  user: 'any' as const,
  path: CaseIdPath,
  responses: {
    200: answer('The case; its version as the ETag header, for If-Match on PATCH', CaseBody, ['ETag']),
    400: problem('Invalid id'),
    401: problem('No valid user token'),
    404: problem('No such case, or one of a store the token may not see'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, path, user, keyId, requestId }) => {
  const reader = await user();
  const found = await caseReads.get(tenantId, path.id, reader.scope);
  if (found.customer.name !== null || found.comment !== null)
    await accessService.recordReads(tenantId, [found.customer.id], { operation: 'getCase', keyId, user: reader.name, requestId });
  return { status: 200, body: found, headers: { etag: etagOf(found.version) } };
});
