import * as chain from '../../analytics/chain.js';
import * as analytics from '../../analytics/export.js';
import { BUCKETS } from '../../buckets.js';
import { ENV, requireEnvs, wire } from '../../config.js';
import { erasureWritten } from '../../privacy/service.js';
import { dayAnswers } from '../analytics-answers.js';
import { analyticsChains } from '../analytics-chains.js';
import { dirtyDays } from '../analytics-dirty.js';
import { analyticsFiles } from '../analytics-files.js';
import { dayCases, daySurveys } from '../analytics-records.js';
import { pseudonymKey } from '../analytics-key.js';
import { privacyRequests } from '../privacy-repository.js';
import { readSettings } from '../settings-repository.js';
import { sendMessage } from '../sqs.js';

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

/**
 * The export's chains of invocations (the analytics queue's links), each link writing for LINK_SECONDS
 * (ANALYTICS_LINK_SECONDS when set); an erasure's chain completes its privacy request.
 */
export const analyticsChainsService = /* @__PURE__ */ wire(() =>
  chain.exportChains(
    {
      chains: analyticsChains,
      files: analyticsFiles,
      send: async (message) => void (await sendMessage('analytics', message)),
      erasureWritten: (tenantId, requestId) => erasureWritten(privacyRequests, tenantId, requestId),
    },
    analyticsExport,
    { linkSeconds: chain.linkSecondsOf(process.env[ENV.analyticsLinkSeconds]) },
  ),
);
