import { ENV, requireEnvs } from '../../config.js';
import { evaluationStore } from '../evaluation-repository.js';
import { surveyService } from '../../surveys/service.js';
import { caseQueue } from '../case-queue.js';
import { events } from './events.js';
import { tenantSettings } from './tenant-settings.js';

// The functions this module serves read the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

/** The chatbot's survey routes and the evaluation lists: the table and the tenant's settings. */
export const { getSurvey, answerSurvey, listEvaluations, getEvaluation } = surveyService({
  evaluations: evaluationStore,
  settings: tenantSettings,
  events,
  // Only the answering functions send (POST and PUT /survey, the survey page's post): they are given the queue.
  cases: caseQueue,
});
