import { ENV, requireEnvs } from '../../config.js';
import { QUEUES, type QueueId } from '../../queues.js';
import { releaseDue, TIMERS, type DelayedSend, type Timer } from '../../timers.js';
import { dueTimers } from '../due-timers.js';
import { sendMessages } from '../sqs.js';

// The release reads and writes the table and puts every kind of timer on its own queue: all are named at cold start.
requireEnvs(ENV.tableName, ...Object.values(TIMERS).map(({ queue }) => QUEUES[queue].urlEnv));

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
export const releaseDueTimers = (now = new Date()) => releaseDue(dueTimers, sendTimers, now);
