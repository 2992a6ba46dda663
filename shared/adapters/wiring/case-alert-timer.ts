import { ENV, requireEnvs } from '../../config.js';
import type { CaseMessage } from '../../cases/message.js';
import { dueScheduler, type DelayedSend } from '../../timers.js';
import { dueTimersOf } from '../due-timers.js';
import { sendMessages } from '../sqs.js';

// A held alert waits in the table, or on the case queue when quiet hours end within the queue's delay.
requireEnvs(ENV.tableName, ENV.caseQueueUrl);

/** Case messages back on the case queue, each delayed to the end of the quiet hours. */
const sendHeldAlerts: DelayedSend<CaseMessage> = (messages) => {
  const delays = new Map(messages.map((m) => [m.message as unknown, m.delaySeconds]));
  return sendMessages('cases', [...delays.keys()], (body) => delays.get(body) ?? 0);
};

/** Where a WhatsApp alert held by quiet hours waits: timers of kind `caseAlert`, released with the others. */
export const caseAlertTimer = dueScheduler(dueTimersOf('caseAlert'), sendHeldAlerts);
