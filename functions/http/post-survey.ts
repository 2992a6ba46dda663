import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { SurveyBody } from '../../shared/surveys/answer-schema.js';
import { EvaluationBody } from '../../shared/surveys/schema.js';
import { surveyService } from '../../shared/adapters/wiring/surveys.js';

/** Chatbot API: records the answer to an attempt (201); one answered already is a 409, an expired survey a 410. */
export const contract = {
  body: SurveyBody,
  responses: {
    201: answer('The recorded answer', EvaluationBody),
    400: problem('Invalid answer'),
    404: problem('No such attempt for that journey'),
    409: problem('Answered already: use PUT'),
    410: problem('The survey expired: it takes no answer'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, body }) => ({
  status: 201,
  body: await surveyService.answerSurvey(tenantId, body, { mode: 'create' }),
}));
