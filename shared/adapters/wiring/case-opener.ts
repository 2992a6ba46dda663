import { ENV, requireEnvs } from '../../config.js';
import { caseOpening } from '../../cases/opener.js';
import { caseStore } from '../case-repository.js';
import { caseAlerts } from '../case-alerts.js';
import { caseNames, caseUsers } from '../case-ports.js';
import { evaluationStore } from '../evaluation-repository.js';
import { caseAlertTimer } from './case-alert-timer.js';
import { caseDeadlineTimer } from './case-deadline-timer.js';
import { events } from './events.js';
import { tenantSettings } from './tenant-settings.js';

// The opener reads answers, writes cases, publishes case.opened and links its alert to the workspace.
requireEnvs(ENV.tableName, ENV.eventQueueUrl, ENV.surveyBaseUrl);

/** The case queue's consumer: the cases service with the alert's e-mail and WhatsApp, the names it shows and the workspace's URL. */
export const caseOpener = caseOpening({
  cases: caseStore,
  users: caseUsers,
  answers: evaluationStore,
  settings: tenantSettings,
  events,
  names: caseNames,
  alerts: caseAlerts,
  deadlines: caseDeadlineTimer,
  quietAlerts: caseAlertTimer,
  baseUrl: process.env[ENV.surveyBaseUrl] ?? '',
});
