import { ENV, requireEnvs } from '../../config.js';
import type { CaseDeadlineMessage } from '../../cases/deadline-message.js';
import { dueScheduler, type DelayedSend } from '../../timers.js';
import { dueTimersOf } from '../due-timers.js';
import { sendMessages } from '../sqs.js';

// A deadline waits in the table, or on its queue when it is due within the queue's delay: both are named at cold start.
requireEnvs(ENV.tableName, ENV.caseDeadlineQueueUrl);

/** Deadline messages on their queue, each delayed to its due time. */
const sendDeadlines: DelayedSend<CaseDeadlineMessage> = (messages) => {
  const delays = new Map(messages.map((m) => [m.message as unknown, m.delaySeconds]));
  return sendMessages('caseDeadlines', [...delays.keys()], (body) => delays.get(body) ?? 0);
};

/** Where case deadlines wait: timers of kind `caseDeadline`, released with the survey attempts. */
export const caseDeadlineTimer = dueScheduler(dueTimersOf('caseDeadline'), sendDeadlines);
