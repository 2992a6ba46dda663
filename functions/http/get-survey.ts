import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { SurveyQuery, SurveyView } from '../../shared/surveys/schema.js';
import { surveyService } from '../../shared/adapters/wiring/surveys.js';

/** Chatbot API: the survey of one attempt, with what the chatbot needs to conduct it. */
export const contract = {
  query: SurveyQuery,
  responses: {
    200: answer('The survey of the attempt', SurveyView),
    400: problem('Invalid parameters'),
    404: problem('No such attempt for that journey'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, query }) => ({
  status: 200,
  body: await surveyService.getSurvey(tenantId, query),
}));
