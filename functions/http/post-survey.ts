import { httpHandler } from '../../shared/http/handler.js';
import { SurveyBody } from '../../shared/surveys/schema.js';
import { answerSurvey } from '../../shared/surveys/service.js';

/** Chatbot API: records the answer to an attempt (201); one answered already is a 409. */
export const handler = httpHandler({ body: SurveyBody }, async ({ tenantId, body }) => ({
  status: 201,
  body: await answerSurvey(tenantId, body, 'create'),
}));
