import { logger } from '../logger.js';
import { count } from '../metrics.js';
import { delayUntil, MAX_DELAY_SECONDS } from '../queues.js';
import type { DispatchMessage } from './dispatch.js';
import type { Scheduler } from './ports.js';

/**
 * Survey attempts due later than the queue can delay (15 minutes) wait in the table, one partition per minute of
 * their due time; every minute the scheduler releases the minutes coming up onto the dispatch queue, each message
 * delayed to its due second. It reads only the partitions of the minutes it releases: its cost per attempt is the
 * same however many are pending, and nothing is lost when it stops (it resumes from its checkpoint).
 */

/** A minute as the scheduler names it: `YYYY-MM-DDTHH:MM`, UTC. */
export const minuteOf = (date: Date): string => date.toISOString().slice(0, 16);
const nextMinute = (minute: string): string => minuteOf(new Date(Date.parse(`${minute}:00Z`) + 60_000));

/** Each run releases the minutes up to this far ahead (less than the queue's delay, so every message is on time). */
export const RELEASE_AHEAD_MINUTES = 10;
/** At most this many minutes per run: after an outage the scheduler catches up over several runs. */
export const MAX_MINUTES_PER_RUN = 120;

/** The table side: attempts by due minute, and the last minute released. */
export interface DueStore {
  put(minute: string, message: DispatchMessage): Promise<void>;
  /** Every message due in `minute`, with the id `remove` takes. */
  dueIn(minute: string): Promise<{ id: string; message: DispatchMessage }[]>;
  remove(minute: string, ids: string[]): Promise<void>;
  checkpoint(): Promise<string | undefined>;
  saveCheckpoint(minute: string): Promise<void>;
}

/** The queue side: messages each delayed by its seconds; answers the positions not sent. */
export type DelayedSend = (messages: { message: DispatchMessage; delaySeconds: number }[]) => Promise<number[]>;

/** Puts a message where it will arrive on time: on the queue, delayed, when it is due within the queue's reach. */
export function dueScheduler(due: DueStore, send: DelayedSend): Scheduler {
  return {
    async schedule(message, dueAt, now) {
      const timed = { ...message, dueAt: dueAt.toISOString() };
      if (dueAt.getTime() - now.getTime() <= MAX_DELAY_SECONDS * 1000) {
        const unsent = await send([{ message: timed, delaySeconds: delayUntil(dueAt, now) }]);
        if (unsent.length) throw new Error('The survey dispatch message could not be queued.');
      } else {
        await due.put(minuteOf(dueAt), timed);
      }
    },
  };
}

/**
 * Releases the minutes after the checkpoint up to RELEASE_AHEAD_MINUTES from now: their messages go on the queue
 * (delayed to their due time), then leave the table, then the checkpoint moves. A crash between those steps sends
 * a message twice at worst, which the attempt's claim makes harmless; it never loses one.
 */
export async function releaseDue(due: DueStore, send: DelayedSend, now: Date): Promise<{ minutes: number; released: number }> {
  const horizon = minuteOf(new Date(now.getTime() + RELEASE_AHEAD_MINUTES * 60_000));
  let minute = nextMinute((await due.checkpoint()) ?? minuteOf(new Date(now.getTime() - 60_000)));
  let minutes = 0;
  let released = 0;
  let last: string | undefined;
  while (minute <= horizon && minutes < MAX_MINUTES_PER_RUN) {
    const items = await due.dueIn(minute);
    if (items.length) {
      const unsent = await send(items.map(({ message }) => ({ message, delaySeconds: delayUntil(message.dueAt, now) })));
      if (unsent.length) throw new Error(`${unsent.length} due survey attempts of ${minute} could not be queued; the minute is retried.`);
      await due.remove(
        minute,
        items.map((item) => item.id),
      );
      released += items.length;
      // A minute released is never released again: the checkpoint moves past it at once.
      await due.saveCheckpoint(minute);
    }
    last = minute;
    minutes++;
    minute = nextMinute(minute);
  }
  // Empty minutes move the checkpoint once per run, not once each.
  if (last) await due.saveCheckpoint(last);
  if (released) count('SurveyAttemptsReleased', undefined, released);
  // A quiet minute is not worth a line at INFO: there are 43,200 of them a month.
  const summary = { minutes, released, upTo: minute };
  if (released) logger.info('Due survey attempts released', summary);
  else logger.debug('Due survey attempts released', summary);
  return { minutes, released };
}
