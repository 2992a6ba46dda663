import * as analytics from '../../analytics/export.js';
import { BUCKETS } from '../../buckets.js';
import { ENV, requireEnvs, wire } from '../../config.js';
import { dayAnswers } from '../analytics-answers.js';
import { dirtyDays } from '../analytics-dirty.js';
import { analyticsFiles } from '../analytics-files.js';
import { dayCases, daySurveys } from '../analytics-records.js';
import { pseudonymKey } from '../analytics-key.js';
import { readSettings } from '../settings-repository.js';

/**
 * The analytics export: the day's answers from the table, its Parquet files in the analytics bucket, the customers'
 * pseudonyms under the tenant's key kept in the table.
 */
export const analyticsExport = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName, BUCKETS.analytics.env);
  return analytics.analyticsExport({
    answers: dayAnswers,
    surveys: daySurveys,
    cases: dayCases,
    dirty: dirtyDays,
    files: analyticsFiles,
    settings: readSettings,
    pseudonymKey,
  });
});
