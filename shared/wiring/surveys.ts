import { evaluationStore } from '../adapters/evaluation-repository.js';
import { surveyService } from '../surveys/service.js';
import { tenantSettings } from './tenants.js';

/** The chatbot's survey routes and the evaluation lists: the table and the tenant's settings. */
export const { getSurvey, answerSurvey, listEvaluations, getEvaluation } = surveyService({
  evaluations: evaluationStore,
  settings: tenantSettings,
});
