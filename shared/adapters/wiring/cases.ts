import { shownAnalysis } from '../analysis-repository.js';
import { ENV, requireEnv, requireEnvs, wire } from '../../config.js';
import * as changes from '../../cases/changes.js';
import type { CaseDeadlineMessage } from '../../cases/deadline-message.js';
import * as opener from '../../cases/opener.js';
import * as overdue from '../../cases/overdue.js';
import * as reads from '../../cases/reads.js';
import * as systemChanges from '../../cases/system-changes.js';
import * as page from '../../workspace/cases-page.js';
import { peopleOf } from '../../cases/owner.js';
import { caseAlerts } from '../case-alerts.js';
import { caseContacts, caseNames, caseUsers } from '../case-ports.js';
import { caseStore } from '../case-repository.js';
import { employeeNames } from '../employee-repository.js';
import { escalationClaims, escalationDirectory } from '../escalations.js';
import { evaluationStore } from '../evaluation-repository.js';
import { storeChoices, storeTradeNames } from '../store-repository.js';
import { events } from './events.js';
import { accessService } from './privacy.js';
import { caseRecovery } from './recovery.js';
import { tenantSettings } from './tenants.js';
import { caseAlertTimer, caseDeadlineTimer } from './timers.js';

/** The cases read through the API and the workspace (the list, one case, its customer's contact): nothing that writes. */
export const caseReads = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return reads.caseReads({ cases: caseStore, contacts: caseContacts, settings: tenantSettings });
});

/**
 * A manager's change (PATCH /public/cases/{id} and the workspace's case form): writes the case, publishes case.resolved
 * and asks for the recovery survey (on the queue it is given: the queue adapter reads the survey dispatch queue's URL
 * when it sends).
 */
export const caseChanges = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return changes.caseChanges({ cases: caseStore, users: caseUsers, settings: tenantSettings, events, recovery: caseRecovery });
});

/** The changes the service makes itself: a case marked overdue, a recovery survey's answer recorded. */
export const caseSystemChanges = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return systemChanges.caseSystemChanges({ cases: caseStore, settings: tenantSettings, events });
});

/**
 * The case queue's consumer: reads answers, writes cases, publishes case.opened, sends the alert's e-mail and WhatsApp
 * with the names it shows, and links it to the workspace.
 */
export const caseOpener = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName, ENV.eventQueueUrl, ENV.surveyBaseUrl);
  return opener.caseOpener({
    cases: caseStore,
    users: caseUsers,
    answers: evaluationStore,
    settings: tenantSettings,
    events,
    names: caseNames,
    alerts: caseAlerts,
    deadlines: caseDeadlineTimer,
    quietAlerts: caseAlertTimer,
    // Read when a link is made: outside a function runtime (the tests, the benchmarks) the module may load before it is set.
    get baseUrl() {
      return process.env[ENV.surveyBaseUrl] ?? '';
    },
  });
});

/** The deadline queue's ports: deadlines wait in the table or on their queue; the check publishes case.overdue and links the escalation to the workspace. */
export const overduePorts = /* @__PURE__ */ wire((): overdue.OverduePorts => {
  requireEnvs(ENV.tableName, ENV.caseDeadlineQueueUrl, ENV.eventQueueUrl, ENV.surveyBaseUrl);
  return {
    cases: caseStore,
    markOverdue: caseSystemChanges.markOverdue,
    escalations: escalationClaims,
    directory: escalationDirectory,
    alerts: caseAlerts,
    names: caseNames,
    settings: tenantSettings,
    timer: caseDeadlineTimer,
    get baseUrl() {
      return requireEnv(ENV.surveyBaseUrl);
    },
  };
});

/** The deadline queue's work for one message. */
export const checkCaseDeadline = (message: CaseDeadlineMessage, now = new Date()) => overdue.checkDeadline(message, overduePorts, now);

/**
 * The workspace's case pages over the cases API's own reads (the same rules), the tenant's users who may own a
 * store's case, the names of stores and employees, and the access log.
 */
export const casesPage = /* @__PURE__ */ wire(() =>
  page.casesPage({
    frame: async (tenantId) => page.casesFrameOf(await tenantSettings(tenantId)),
    list: caseReads.list,
    get: caseReads.get,
    analysis: shownAnalysis,
    revealContact: caseReads.revealContact,
    candidates: async (tenantId, storeId) =>
      peopleOf(caseUsers, tenantId, { storeId, regions: (await tenantSettings(tenantId)).regions ?? [] }),
    storeNames: storeTradeNames,
    storeChoices,
    employeeNames,
    recordReads: accessService.recordReads,
  }),
);

/** The workspace's case form (POST /app/cases/{id}): the case pages with the API's own change. */
export const changeCase = (request: page.CasePageRequest) => casesPage.changeCase(request, caseChanges.update);
