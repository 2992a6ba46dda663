import { caseChanges } from '../../shared/adapters/wiring/cases.js';
import { CaseBody } from '../../shared/cases/bodies.js';
import { CaseIdPath, CasePatch } from '../../shared/cases/schema.js';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';

/**
 * Moves a case: `status` (open -> in_progress -> resolved or closed_unresolved; resolving takes `root_cause` and
 * `note`), `owner`, `root_cause`, `note`. Each wrong field is named; a change racing another is a 409.
 */
export const contract = {
  user: 'any' as const,
  path: CaseIdPath,
  body: CasePatch,
  statuses: { validation: 422 },
  responses: {
    200: answer('The case as changed', CaseBody),
    400: problem('A body that is not JSON'),
    401: problem('No valid user token'),
    404: problem('No such case, or one of a store the token may not see'),
    409: problem('Someone changed the case since it was read: read it again'),
    422: problem(
      'A field that does not fit the case (each named): a status it cannot take, a root cause not of the tenant, an owner out of scope',
    ),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, path, body, user }) => {
  const actor = await user();
  return { status: 200, body: await caseChanges.update(tenantId, path.id, body, { name: actor.name, scope: actor.scope }) };
});
