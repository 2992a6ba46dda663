import { ENV, requireEnv, requireEnvs } from '../../config.js';
import type { CaseDeadlineMessage } from '../../cases/deadline-message.js';
import { checkDeadline, type OverduePorts } from '../../cases/overdue.js';
import { caseSystemChanges } from '../../cases/system-changes.js';
import { caseAlerts } from '../case-alerts.js';
import { caseNames } from '../case-ports.js';
import { caseStore } from '../case-repository.js';
import { escalationClaims, escalationDirectory } from '../escalations.js';
import { caseDeadlineTimer } from './case-deadline-timer.js';
import { events } from './events.js';
import { tenantSettings } from './tenant-settings.js';

// Deadlines wait in the table or on their queue; the check publishes case.overdue and links the escalation to the workspace.
requireEnvs(ENV.tableName, ENV.caseDeadlineQueueUrl, ENV.eventQueueUrl, ENV.surveyBaseUrl);

const cases = caseSystemChanges({ cases: caseStore, settings: tenantSettings, events });

export const overduePorts: OverduePorts = {
  cases: caseStore,
  markOverdue: cases.markOverdue,
  escalations: escalationClaims,
  directory: escalationDirectory,
  alerts: caseAlerts,
  names: caseNames,
  settings: tenantSettings,
  timer: caseDeadlineTimer,
  baseUrl: requireEnv(ENV.surveyBaseUrl),
};

/** The deadline queue's work for one message. */
export const checkCaseDeadline = (message: CaseDeadlineMessage, now = new Date()) => checkDeadline(message, overduePorts, now);
