import { caseReads } from '../../shared/adapters/wiring/cases.js';
import { accessService } from '../../shared/adapters/wiring/privacy.js';
import { CaseContactBody } from '../../shared/cases/bodies.js';
import { CaseIdPath } from '../../shared/cases/schema.js';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';

/**
 * The customer's phone and e-mail address, for the manager to call or write about the case. A POST, not a GET: each
 * reveal is an act, written to the customer's access log before the contact is answered (and never cached).
 */
export const contract = {
  user: 'any' as const,
  path: CaseIdPath,
  responses: {
    200: answer("The case's customer: name, phone and e-mail (null once erased)", CaseContactBody),
    400: problem('Invalid id'),
    401: problem('No valid user token'),
    404: problem('No such case, or one of a store the token may not see'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, path, user, keyId, requestId }) => {
  const reader = await user();
  const revealed = await caseReads.revealContact(tenantId, path.id, { name: reader.name, scope: reader.scope });
  await accessService.recordReads(tenantId, [revealed.customerId], { operation: 'revealCaseContact', keyId, user: reader.name, requestId });
  return { status: 200, body: revealed.body };
});
