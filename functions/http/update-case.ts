import { caseChanges } from '../../shared/adapters/wiring/cases.js';
import { CaseBody } from '../../shared/cases/bodies.js';
import { CaseIdPath, CasePatch } from '../../shared/cases/schema.js';
import { answer, problem } from '../../shared/http/contract.js';
import { etagOf, expectedVersion } from '../../shared/http/etag.js';
import { httpHandler } from '../../shared/http/handler.js';

/**
 * Moves a case: `status` (open -> in_progress -> resolved or closed_unresolved; resolving takes `root_cause` and
 * `note`), `owner`, `root_cause`, `note`, if it is still the version read (If-Match: its ETag). Each wrong field is
 * named; of several changes made from one read, one is written and the others answer 412.
 */
export const contract = {
  user: 'any' as const,
  path: CaseIdPath,
  body: CasePatch,
  ifMatch: 'the case you read (GET /public/cases/{id})',
  statuses: { validation: 422 },
  responses: {
    200: answer('The case as changed', CaseBody, ['ETag']),
    400: problem('A body that is not JSON'),
    401: problem('No valid user token'),
    404: problem('No such case, or one of a store the token may not see'),
    412: problem('The case changed since that ETag was read (or the ETag is weak): read it again'),
    422: problem(
      'A field that does not fit the case (each named): a status it cannot take, a root cause not of the tenant, an owner out of scope',
    ),
    428: problem('No If-Match header'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, path, body, headers, user }) => {
  const expected = expectedVersion(headers['if-match'], contract.ifMatch);
  const { name, scope } = await user();
  const changed = await caseChanges.update(tenantId, { id: path.id, patch: body, actor: { name, scope }, expected });
  return { status: 200, body: changed, headers: { etag: etagOf(changed.version) } };
});
