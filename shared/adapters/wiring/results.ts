import { ENV, requireEnvs, wire } from '../../config.js';
import * as results from '../../results/service.js';
import * as themes from '../../themes/report.js';
import { themeCounters } from '../theme-counters.js';
import * as page from '../../workspace/results-page.js';
import { employees } from '../employee-repository.js';
import { resultCounters } from '../result-counters.js';
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
