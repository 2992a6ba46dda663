import { httpHandler } from '../../shared/http/handler.js';
import { EvaluationsQuery } from '../../shared/surveys/schema.js';
import { listEvaluations } from '../../shared/surveys/service.js';
import { resolveUser } from '../../shared/tenants/service.js';

/** Seed 4.6 and 5.2: flexible-form ratings in a date range; needs a user token; invalid parameters answer 422. */
export const handler = httpHandler({ query: EvaluationsQuery, statuses: { validation: 422 } }, async ({ tenantId, query, userToken }) => {
  await resolveUser(tenantId, userToken);
  return { status: 200, body: await listEvaluations(tenantId, query) };
});
