import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { SurveyBody } from '../../shared/surveys/answer-schema.js';
import { EvaluationBody } from '../../shared/surveys/schema.js';
import { surveyService } from '../../shared/adapters/wiring/surveys.js';

/** Chatbot API: replaces the answer of an attempt (200); 404 when it has none, 410 once the survey expired. */
export const contract = {
  body: SurveyBody,
  responses: {
    200: answer('The corrected answer', EvaluationBody),
    400: problem('Invalid answer'),
    404: problem('No answer to replace'),
    410: problem('The survey expired: it takes no correction'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, body }) => ({
  status: 200,
  body: await surveyService.answerSurvey(tenantId, body, { mode: 'replace' }),
}));
