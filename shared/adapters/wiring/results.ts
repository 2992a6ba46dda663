import { ENV, requireEnvs, wire } from '../../config.js';
import { peopleOf } from '../../cases/owner.js';
import * as results from '../../results/service.js';
import * as themes from '../../themes/report.js';
import { themeExamples } from '../../answers/theme-examples.js';
import { answerStore } from '../answer-repository.js';
import { themeCounters } from '../theme-counters.js';
import * as scoreDrop from '../../results/score-drop.js';
import * as schedule from '../../results/score-drop-schedule.js';
import type { ConfigChange } from '../../audit/log.js';
import { scoreDropTimer } from './timers.js';
import * as page from '../../workspace/results-page.js';
import { caseAlerts } from '../case-alerts.js';
import { caseNames, caseUsers } from '../case-ports.js';
import { employees } from '../employee-repository.js';
import { resultCounters } from '../result-counters.js';
import { claimScoreDrop } from '../score-drop-claims.js';
import { stores } from '../store-repository.js';
import { sendChat } from './chat.js';
import { tenantSettings } from './tenants.js';

/** Results: the counters, the tenant's journeys and classes, and the names of stores and employees. */
export const resultsService = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return results.resultsService({ counters: resultCounters, settings: tenantSettings, stores, employees });
});

/** The workspace's results page over the results service. */
export const resultsPage = /* @__PURE__ */ wire(() =>
  page.resultsPage({
    settings: tenantSettings,
    report: resultsService.report,
    themes: (...args) => themeResults.report(...args),
    drivers: (...args) => resultsService.drivers(...args),
    examples: themeExamples({ answers: answerStore, settings: tenantSettings }),
  }),
);

/** The themes' report (group_by=theme) over the theme counters. */
export const themeResults = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return themes.themeReport({ counters: themeCounters, settings: tenantSettings });
});

/** The daily score-drop runs (the score-drop queue's consumer): each checks its tenant and parks the next day's. */
export const scoreDropRuns = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName, ENV.scoreDropQueueUrl);
  const ports: schedule.ScoreDropSchedulePorts = {
    settings: tenantSettings,
    check: (tenantId, day) => checkScoreDrops(tenantId, day),
    get timer() {
      return scoreDropTimer;
    },
  };
  return {
    run: (message: schedule.ScoreDropRun, now = new Date()) => schedule.runCheck(ports, message, now),
    /** After a configuration change: the first run parked when it turned the alert on. */
    async changed(tenantId: number, changes: readonly ConfigChange[], now = new Date()) {
      if (schedule.turnedOn(changes)) await schedule.scheduleNextCheck(ports, tenantId, { settings: await tenantSettings(tenantId), now });
    },
    /** After the operator's apply: the next run parked when the alert is on (parked again, the same timer). */
    async applied(tenantId: number, now = new Date()) {
      const settings = await tenantSettings(tenantId);
      if (settings.alerts?.scoreDrop) await schedule.scheduleNextCheck(ports, tenantId, { settings, now });
    },
  };
});

/** The daily score-drop check of one tenant: its stores' day counters, their managers, a claim a week, the alert e-mail and chat. */
export const checkScoreDrops = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return scoreDrop.scoreDrops({
    settings: tenantSettings,
    counters: resultCounters,
    managers: async (tenantId, storeId) =>
      peopleOf(caseUsers, tenantId, { storeId, regions: (await tenantSettings(tenantId)).regions ?? [] }),
    storeName: caseNames.store,
    claim: claimScoreDrop,
    email: caseAlerts.email,
    chat: (tenantId, event) => sendChat(tenantId, event),
    // Read when a link is made: outside a function runtime (the tests) the module may load before it is set.
    get baseUrl() {
      return process.env[ENV.surveyBaseUrl] ?? '';
    },
  });
});
