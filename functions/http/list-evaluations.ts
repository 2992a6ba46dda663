import { answer, listOf, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { EvaluationBody, EvaluationsQuery } from '../../shared/surveys/schema.js';
import { listEvaluations } from '../../shared/surveys/service.js';
import { readAsUser } from '../../shared/tenants/service.js';

/** Seed 4.6 and 5.2: flexible-form ratings in a date range; needs a user token; invalid parameters answer 422. */
export const contract = { query: EvaluationsQuery, statuses: { validation: 422 }, responses: { 200: answer('A page of evaluations, newest first', listOf(EvaluationBody)), 401: problem('No valid user token'), 422: problem('Invalid parameters') } };

export const handler = httpHandler(contract, async ({ tenantId, query, userToken }) => {
  return { status: 200, body: await readAsUser(tenantId, userToken, () => listEvaluations(tenantId, query)) };
});
