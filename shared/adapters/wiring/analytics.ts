import * as chain from '../../analytics/chain.js';
import * as schedule from '../../analytics/schedule.js';
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
import { dueScheduler, type DelayedSend } from '../../timers/timers.js';
import { dueTimersOf } from '../due-timers.js';
import { readSettings } from '../settings-repository.js';
import { sendMessage, sendMessages } from '../sqs.js';

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

/** Analytics runs on the analytics queue, each delayed to its due time (its URL read when one is sent). */
const sendRuns: DelayedSend<schedule.RunMessage> = (messages) => {
  const delays = new Map(messages.map((m) => [m.message as unknown, m.delaySeconds]));
  return sendMessages('analytics', [...delays.keys()], (body) => delays.get(body) ?? 0);
};

/**
 * The daily run of each tenant and the chains' links (the analytics queue's consumer), and the admin command's start of a tenant's schedule:
 * its next run parked as a timer of kind `analyticsDay`, in the table until its midnight (the queue only when that is
 * within the queue's delay, so the admin command needs no queue URL but then).
 */
export const analyticsSchedule = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName, BUCKETS.analytics.env);
  const scheduled = schedule.analyticsSchedule(
    { settings: readSettings, timer: dueScheduler(dueTimersOf('analyticsDay'), sendRuns) },
    analyticsExport,
    analyticsChainsService,
  );
  return {
    handle: (message: schedule.AnalyticsMessage, now = new Date()) => scheduled.handle(message, now),
    scheduleNext: (tenantId: number, now = new Date()) => scheduled.scheduleNext(tenantId, now),
  };
});
