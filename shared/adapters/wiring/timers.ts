import { ENV, requireEnvs, wire } from '../../config.js';
import type { CaseMessage } from '../../cases/message.js';
import type { CaseDeadlineMessage } from '../../cases/deadline-message.js';
import type { DigestMessage } from '../../digest/schema.js';
import type { ScoreDropRun } from '../../results/score-drop-schedule.js';
import { QUEUES, type QueueId } from '../../queues.js';
import * as surveyTimers from '../../surveys/scheduler.js';
import { dueScheduler, releaseDue, TIMERS, type DelayedSend, type Timer } from '../../timers/timers.js';
import { dueAttempts } from '../due-attempts.js';
import { dueTimers, dueTimersOf } from '../due-timers.js';
import { sendMessages } from '../sqs.js';

/** Messages on the dispatch queue, each delayed to its attempt's due time. */
const sendDelayed: surveyTimers.DelayedSend = (messages) => {
  const delays = new Map(messages.map((m) => [m.message as unknown, m.delaySeconds]));
  return sendMessages(
    'surveyDispatch',
    messages.map((m) => m.message),
    (body) => delays.get(body) ?? 0,
  );
};

/**
 * Where later survey attempts wait: on the dispatch queue when it can delay them, else in the table by due minute. The
 * queue's URL is read when a message is sent (the queue adapter's requireEnv): the case changes hold this scheduler
 * (a resolved case's recovery survey) in functions that only read cases and are given no dispatch queue; the
 * functions that schedule every time (transactions, delivery) name it at cold start.
 */
export const attemptScheduler = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return surveyTimers.dueScheduler(dueAttempts, sendDelayed);
});

/** Case messages back on the case queue, each delayed to the end of the quiet hours. */
const sendHeldAlerts: DelayedSend<CaseMessage> = (messages) => {
  const delays = new Map(messages.map((m) => [m.message as unknown, m.delaySeconds]));
  return sendMessages('cases', [...delays.keys()], (body) => delays.get(body) ?? 0);
};

/** Where a WhatsApp alert held by quiet hours waits: timers of kind `caseAlert`, in the table or on the case queue. */
export const caseAlertTimer = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName, ENV.caseQueueUrl);
  return dueScheduler(dueTimersOf('caseAlert'), sendHeldAlerts);
});

/** Deadline messages on their queue, each delayed to its due time. */
const sendDeadlines: DelayedSend<CaseDeadlineMessage> = (messages) => {
  const delays = new Map(messages.map((m) => [m.message as unknown, m.delaySeconds]));
  return sendMessages('caseDeadlines', [...delays.keys()], (body) => delays.get(body) ?? 0);
};

/** Where case deadlines wait: timers of kind `caseDeadline`, in the table or on their queue when due within its delay. */
export const caseDeadlineTimer = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName, ENV.caseDeadlineQueueUrl);
  return dueScheduler(dueTimersOf('caseDeadline'), sendDeadlines);
});

/** Each timer's message on the queue its kind names, delayed to its due time; answers the positions not sent. */
export const sendTimers: DelayedSend<Timer> = async (timers) => {
  const byQueue = new Map<QueueId, number[]>();
  timers.forEach(({ message: timer }, index) => {
    const queue = TIMERS[timer.kind].queue;
    byQueue.set(queue, [...(byQueue.get(queue) ?? []), index]);
  });
  const unsent = await Promise.all(
    [...byQueue].map(async ([queue, indexes]) => {
      const delays = new Map(indexes.map((i) => [timers[i]!.message.message as unknown, timers[i]!.delaySeconds]));
      const failed = await sendMessages(queue, [...delays.keys()], (body) => delays.get(body) ?? 0);
      return failed.map((position) => indexes[position]!);
    }),
  );
  return unsent.flat().sort((a, b) => a - b);
};

/** One run of the scheduled release: the minutes coming up, from the checkpoint, every kind of timer. */
export const releaseDueTimers = /* @__PURE__ */ wire(() => {
  // The release reads and writes the table and puts every kind of timer on its own queue: all are named at cold start.
  requireEnvs(ENV.tableName, ...Object.values(TIMERS).map(({ queue }) => QUEUES[queue].urlEnv));
  return (now = new Date()) => releaseDue(dueTimers, sendTimers, now);
});

/** Digest runs back on the digest queue, each delayed to its due time. */
const sendDigestRuns: DelayedSend<DigestMessage> = (messages) => {
  const delays = new Map(messages.map((m) => [m.message as unknown, m.delaySeconds]));
  return sendMessages('digests', [...delays.keys()], (body) => delays.get(body) ?? 0);
};

/**
 * The operator's command parks a new tenant's first digest run: always in the table (more than the queue's delay
 * ahead, `scheduleFirstRun`), so the command needs no queue.
 */
export const firstDigestTimer = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return dueScheduler(dueTimersOf('digest'), () => Promise.reject(new Error('A first digest run is parked in the table, not queued.')));
});

/** Where a tenant's next scheduled digest run waits: timers of kind `digest`, in the table until its morning comes. */
export const digestTimer = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName, ENV.digestQueueUrl);
  return dueScheduler(dueTimersOf('digest'), sendDigestRuns);
});

/** Score-drop runs on their queue, each delayed to its due time. */
const sendScoreDropRuns: DelayedSend<ScoreDropRun> = (messages) => {
  const delays = new Map(messages.map((m) => [m.message as unknown, m.delaySeconds]));
  return sendMessages('scoreDrops', [...delays.keys()], (body) => delays.get(body) ?? 0);
};

/** Where a tenant's next score-drop check waits: timers of kind `scoreDrop`, in the table until its day comes. */
export const scoreDropTimer = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName, ENV.scoreDropQueueUrl);
  return dueScheduler(dueTimersOf('scoreDrop'), sendScoreDropRuns);
});
