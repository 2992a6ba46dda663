import type { DelayedSend as TimerSend, DueStore as TimerStore } from '../timers/timers.js';
import type { DispatchMessage } from './dispatch.js';

/**
 * Survey attempts due later than the queue can delay wait as timers (shared/timers/timers.ts): in the table by due minute,
 * released onto the dispatch queue each delayed to its due second. These are the timers' names as attempts use them.
 */
export { dueScheduler, MAX_MINUTES_PER_RUN, minuteOf, RELEASE_AHEAD_MINUTES, releaseDue } from '../timers/timers.js';

/** Attempts by due minute, and the release's checkpoint. */
export type DueStore = TimerStore<DispatchMessage>;

/** The dispatch queue, each message delayed by its seconds; answers the positions not sent. */
export type DelayedSend = TimerSend<DispatchMessage>;
