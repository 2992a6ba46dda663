import { logger } from '../logger.js';
import { count } from '../metrics.js';
import { delayUntil, MAX_DELAY_SECONDS, type QueueId } from '../queues.js';

/**
 * Timers: a message that must reach its queue at a given time, however far away. A timer due within the queue's
 * delay (15 minutes) rides the queue's own per-message delay; a later one waits in the table, one partition per
 * minute of its due time, and every minute the release puts the minutes coming up on their queues, each message
 * delayed to its due second. The release reads only the partitions of the minutes it releases: its cost per timer is
 * the same however many are pending, and nothing is lost when it stops (it resumes from its checkpoint).
 *
 * Survey attempts and case deadlines both wait this way, in the same partitions, released by the same function: a
 * timer names what it is for, and that names the queue it goes to.
 */
export const TIMERS = {
  /** A later survey attempt (a reminder, or one held by quiet hours): the dispatch message, for the senders. */
  surveyAttempt: { queue: 'surveyDispatch' },
  /** A case's business-hours deadline: when it fires on a case still open, the case is overdue and escalates. */
  caseDeadline: { queue: 'caseDeadlines' },
  /** A case's WhatsApp alert held by the tenant's quiet hours: the case message, back to the opener when they end. */
  caseAlert: { queue: 'cases' },
  /** A tenant's scheduled digest run (08:00 in its zone): it queues each user's digests due that morning, parks the next. */
  digest: { queue: 'digests' },
  /** A tenant's daily score-drop check (07:00 in its zone): it checks the tenant and parks the next day's. */
  scoreDrop: { queue: 'scoreDrops' },
  /** A tenant's daily analytics run (after its midnight): the day before written, the next run parked. */
  analyticsDay: { queue: 'analytics' },
} as const satisfies Record<string, { queue: QueueId }>;
export type TimerKind = keyof typeof TIMERS;

/** What a timer carries: any message with the instant it is due, set when it is scheduled. */
export interface Timed {
  dueAt?: string | undefined;
}

/** A timer as the release reads it: what it is for, when it is due, and its message. */
export interface Timer<M extends Timed = Timed> {
  kind: TimerKind;
  dueAt?: string | undefined;
  message: M;
}

/** A minute as the release names it: `YYYY-MM-DDTHH:MM`, UTC. */
export const minuteOf = (date: Date): string => date.toISOString().slice(0, 16);
const nextMinute = (minute: string): string => minuteOf(new Date(Date.parse(`${minute}:00Z`) + 60_000));

/** Each run releases the minutes up to this far ahead (less than the queue's delay, so every message is on time). */
export const RELEASE_AHEAD_MINUTES = 10;
/** At most this many minutes per run: after an outage the release catches up over several runs. */
export const MAX_MINUTES_PER_RUN = 120;

/** The table side: messages by due minute, and the last minute released. */
export interface DueStore<M extends Timed> {
  put(minute: string, message: M): Promise<void>;
  /**
   * Every message due in `minute`. Released timers are not deleted: the checkpoint keeps their minute from being read
   * again, and the table's TTL removes them (a delete per timer, all in the second the release runs, took 194% of a
   * shard's write units at a 10-million-a-day tenant's peak).
   */
  dueIn(minute: string): Promise<M[]>;
  checkpoint(): Promise<string | undefined>;
  saveCheckpoint(minute: string): Promise<void>;
}

/** The queue side: messages each delayed by its seconds; answers the positions not sent. */
export type DelayedSend<M extends Timed> = (messages: { message: M; delaySeconds: number }[]) => Promise<number[]>;

/** Puts a message back on its way so that it arrives at `dueAt` (durably, however far away). */
export interface TimerScheduler<M extends Timed> {
  schedule(message: M, dueAt: Date, now: Date): Promise<void>;
}

/** Puts a message where it will arrive on time: on the queue, delayed, when it is due within the queue's reach. */
export function dueScheduler<M extends Timed>(due: DueStore<M>, send: DelayedSend<M>): TimerScheduler<M> {
  return {
    async schedule(message, dueAt, now) {
      const timed = { ...message, dueAt: dueAt.toISOString() };
      if (dueAt.getTime() - now.getTime() <= MAX_DELAY_SECONDS * 1000) {
        const unsent = await send([{ message: timed, delaySeconds: delayUntil(dueAt, now) }]);
        if (unsent.length) throw new Error('The timer could not be queued.');
      } else {
        await due.put(minuteOf(dueAt), timed);
      }
    },
  };
}

/**
 * Releases the minutes after the checkpoint up to RELEASE_AHEAD_MINUTES from now: their messages go on the queue
 * (delayed to their due time), then the checkpoint moves past the minute; the timers stay until the table's TTL
 * removes them (DUE_TTL_DAYS after their time). A crash between the two sends the minute again at worst, which its
 * consumer makes harmless (an attempt's claim, a case's overdue mark); it never loses one.
 */
export async function releaseDue<M extends Timed>(
  due: DueStore<M>,
  send: DelayedSend<M>,
  now: Date,
): Promise<{ minutes: number; released: number }> {
  const horizon = minuteOf(new Date(now.getTime() + RELEASE_AHEAD_MINUTES * 60_000));
  let minute = nextMinute((await due.checkpoint()) ?? minuteOf(new Date(now.getTime() - 60_000)));
  let minutes = 0;
  let released = 0;
  let last: string | undefined;
  while (minute <= horizon && minutes < MAX_MINUTES_PER_RUN) {
    const items = await due.dueIn(minute);
    if (items.length) {
      const unsent = await send(items.map((message) => ({ message, delaySeconds: delayUntil(message.dueAt, now) })));
      if (unsent.length) throw new Error(`${unsent.length} timers due in ${minute} could not be queued; the minute is retried.`);
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
  if (released) count('TimersReleased', undefined, released);
  // A quiet minute is not worth a line at INFO: there are 43,200 of them a month.
  const summary = { minutes, released, upTo: minute };
  if (released) logger.info('Due timers released', summary);
  else logger.debug('Due timers released', summary);
  return { minutes, released };
}
