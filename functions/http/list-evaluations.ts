import { configuredSecret } from '../../shared/adapters/secrets.js';
import { ENV } from '../../shared/config.js';
import { answer, listOf, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { EvaluationBody, EvaluationsQuery } from '../../shared/surveys/schema.js';
import { surveyService } from '../../shared/adapters/wiring/surveys.js';
import { seesStore } from '../../shared/access/tenant-access.js';

// Its pages' cursors are sealed with the deployment's cursor secret.
await configuredSecret(ENV.cursorSecret);

/**
 * Flexible-form ratings in a date range; needs a user token; invalid parameters answer 422. A token limited to some
 * stores sees their evaluations only (a page may then hold fewer than `limit`; follow next_cursor).
 */
export const contract = {
  userTokenInQuery: true as const,
  user: 'any' as const,
  query: EvaluationsQuery,
  statuses: { validation: 422 },
  responses: {
    200: answer('A page of evaluations, newest first', listOf(EvaluationBody)),
    401: problem('No valid user token'),
    422: problem('Invalid parameters'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, query, user }) => {
  const [page, { scope }] = await Promise.all([surveyService.listEvaluations(tenantId, query), user()]);
  return { status: 200, body: { ...page, data: page.data.filter((e) => seesStore(scope, e.store_id)) } };
});
