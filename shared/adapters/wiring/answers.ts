import { ENV, requireEnvs } from '../../config.js';
import { answersService } from '../../answers/service.js';
import { answerStore } from '../answer-repository.js';
import { tenantSettings } from './tenant-settings.js';

requireEnvs(ENV.tableName);

/** Answers: the answer indexes and the tenant's journeys and classes. */
export const { listAnswers } = answersService({ answers: answerStore, settings: tenantSettings });
