import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { EvaluationBody, EvaluationPath, EvaluationQuery } from '../../shared/surveys/schema.js';
import { surveyService } from '../../shared/adapters/wiring/surveys.js';

/** One evaluation, by its id or (is_external=true) by the transaction's external id. */
export const contract = {
  userTokenInQuery: true as const,
  path: EvaluationPath,
  query: EvaluationQuery,
  responses: { 200: answer('The evaluation', EvaluationBody), 404: problem('No such evaluation') },
};

export const handler = httpHandler(contract, async ({ tenantId, path, query }) => ({
  status: 200,
  body: await surveyService.getEvaluation(tenantId, path.id, query.is_external),
}));
