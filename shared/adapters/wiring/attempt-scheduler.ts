import { ENV, requireEnvs } from '../../config.js';
import { dueAttempts } from '../due-attempts.js';
import { sendMessages } from '../sqs.js';
import { dueScheduler, type DelayedSend } from '../../surveys/scheduler.js';

// Attempts wait in the table or on the dispatch queue. The queue's URL is read when a message is sent (the queue
// adapter's requireEnv): the case wiring holds this scheduler (a resolved case's recovery survey) in functions that only
// read cases and are given no dispatch queue. The wirings of the functions that schedule every time (transactions,
// delivery) still name it at cold start.
requireEnvs(ENV.tableName);

/** Messages on the dispatch queue, each delayed to its attempt's due time. */
export const sendDelayed: DelayedSend = (messages) => {
  const delays = new Map(messages.map((m) => [m.message as unknown, m.delaySeconds]));
  return sendMessages(
    'surveyDispatch',
    messages.map((m) => m.message),
    (body) => delays.get(body) ?? 0,
  );
};

/** Where later attempts wait: on the queue when it can delay them, else in the table by due minute. */
export const attemptScheduler = dueScheduler(dueAttempts, sendDelayed);
