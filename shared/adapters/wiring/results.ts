import { ENV, requireEnvs, wire } from '../../config.js';
import { peopleOf } from '../../cases/owner.js';
import * as results from '../../results/service.js';
import * as themes from '../../themes/report.js';
import { themeCounters } from '../theme-counters.js';
import * as scoreDrop from '../../results/score-drop.js';
import * as page from '../../workspace/results-page.js';
import { caseAlerts } from '../case-alerts.js';
import { caseNames, caseUsers } from '../case-ports.js';
import { employees } from '../employee-repository.js';
import { resultCounters } from '../result-counters.js';
import { claimScoreDrop } from '../score-drop-claims.js';
import { stores } from '../store-repository.js';
import { tenantSettings } from './tenants.js';

/** Results: the counters, the tenant's journeys and classes, and the names of stores and employees. */
export const resultsService = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return results.resultsService({ counters: resultCounters, settings: tenantSettings, stores, employees });
});

/** The workspace's results page over the results service. */
export const resultsPage = /* @__PURE__ */ wire(() =>
  page.resultsPage({ settings: tenantSettings, report: resultsService.report, themes: (...args) => themeResults.report(...args) }),
);

/** The themes' report (group_by=theme) over the theme counters. */
export const themeResults = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return themes.themeReport({ counters: themeCounters, settings: tenantSettings });
});

/** The daily score-drop check of one tenant: its stores' day counters, their managers, a claim a week, the alert e-mail. */
export const checkScoreDrops = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return scoreDrop.scoreDrops({
    settings: tenantSettings,
    counters: resultCounters,
    managers: (tenantId, storeId) => peopleOf(caseUsers, tenantId, storeId),
    storeName: caseNames.store,
    claim: claimScoreDrop,
    email: caseAlerts.email,
  });
});
