import { httpHandler } from '../../shared/http/handler.js';
import { SurveyQuery } from '../../shared/surveys/schema.js';
import { getSurvey } from '../../shared/surveys/service.js';

/** Chatbot API: the survey of one attempt, with what the chatbot needs to conduct it. */
export const handler = httpHandler({ query: SurveyQuery }, async ({ tenantId, query }) => ({
  status: 200,
  body: await getSurvey(tenantId, query),
}));
