import { httpHandler } from '../../shared/http/handler.js';
import { EvaluationPath, EvaluationQuery } from '../../shared/surveys/schema.js';
import { getEvaluation } from '../../shared/surveys/service.js';

/** Seed 4.6: one evaluation, by its id or (is_external=true) by the transaction's external id. */
export const handler = httpHandler({ path: EvaluationPath, query: EvaluationQuery }, async ({ tenantId, path, query }) => ({
  status: 200,
  body: await getEvaluation(tenantId, path.id, query.is_external),
}));
