import { httpHandler } from '../../shared/http/handler.js';
import { SurveyBody } from '../../shared/surveys/schema.js';
import { answerSurvey } from '../../shared/surveys/service.js';

/** Chatbot API: replaces the answer of an attempt (200); 404 when it has none. */
export const handler = httpHandler({ body: SurveyBody }, async ({ tenantId, body }) => ({
  status: 200,
  body: await answerSurvey(tenantId, body, 'replace'),
}));
