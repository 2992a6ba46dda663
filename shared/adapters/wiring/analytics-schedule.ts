import * as schedule from '../../analytics/schedule.js';
import { BUCKETS } from '../../buckets.js';
import { ENV, requireEnvs, wire } from '../../config.js';
import { dueScheduler, type DelayedSend } from '../../timers.js';
import { dueTimersOf } from '../due-timers.js';
import { readSettings } from '../settings-repository.js';
import { sendMessages } from '../sqs.js';
import { analyticsChainsService, analyticsExport } from './analytics.js';

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
