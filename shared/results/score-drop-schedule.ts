import * as v from 'valibot';
import type { ConfigChange } from '../audit/log.js';
import { timeZoneOf } from '../locale.js';
import type { Settings } from '../settings/settings.js';
import type { TimerScheduler } from '../timers/timers.js';

/**
 * The daily score-drop check's schedule (docs/rankings.md): a due timer per tenant that turned `alerts.scoreDrop` on, at
 * 07:00 in its zone. Each run checks its one tenant and parks the next day's; a run that finds the alert off parks
 * none, so the chain lapses. No run reads another tenant: the cost of a run is one tenant's, however many there are.
 */

/** The hour (in the tenant's zone) of the daily check. */
export const SCORE_DROP_HOUR = 7;

/** The score-drop queue's message: one tenant's check of one day (the day it is due, UTC, as the counters' days are). */
export const ScoreDropRun = v.object({
  version: v.literal(1),
  tenantId: v.number(),
  day: v.string(),
  /** When the run is due (set by its timer). */
  dueAt: v.optional(v.string()),
});
export type ScoreDropRun = v.InferOutput<typeof ScoreDropRun>;

export interface ScoreDropSchedulePorts {
  settings(tenantId: number): Promise<Settings>;
  /** The check of one tenant on one day (shared/results/score-drop.ts): the stores alerted, each at most once a week. */
  check(tenantId: number, today: string): Promise<number[]>;
  timer: TimerScheduler<ScoreDropRun>;
}

/** The next SCORE_DROP_HOUR o'clock in `timeZone` after `now`. */
export function nextCheckAt(now: Date, timeZone: string): Date {
  // The zone's offset at `now` (a change of offset overnight moves one run by an hour at most).
  const local = new Date(now.toLocaleString('en-US', { timeZone }));
  const utc = new Date(now.toLocaleString('en-US', { timeZone: 'UTC' }));
  const offset = local.getTime() - utc.getTime();
  const target = new Date(now.getTime() + offset);
  target.setUTCHours(SCORE_DROP_HOUR, 0, 0, 0);
  if (target.getTime() - offset <= now.getTime()) target.setUTCDate(target.getUTCDate() + 1);
  return new Date(target.getTime() - offset);
}

/** Parks the tenant's next run (one timer per tenant and day: parked twice, one timer). */
export async function scheduleNextCheck(
  ports: Pick<ScoreDropSchedulePorts, 'timer'>,
  tenantId: number,
  { settings, now }: { settings: Settings; now: Date },
) {
  const dueAt = nextCheckAt(now, timeZoneOf(settings));
  await ports.timer.schedule({ version: 1, tenantId, day: dueAt.toISOString().slice(0, 10) }, dueAt, now);
}

/** Whether a configuration change turned the alert on: only then is the first run parked (the chain parks the rest). */
export const turnedOn = (changes: readonly ConfigChange[]): boolean =>
  changes.some((change) => change.path === 'alerts.scoreDrop' && change.new === true);

/**
 * One run: off, nothing (the chain lapses); on, the next day's run parked first (a failed check retried parks the same
 * timer again), then the day's check. Fired twice, the check's claim of each store's week sends each alert once.
 */
export async function runCheck(ports: ScoreDropSchedulePorts, run: ScoreDropRun, now: Date): Promise<number[] | 'off'> {
  const settings = await ports.settings(run.tenantId);
  if (!settings.alerts?.scoreDrop) return 'off';
  // From the run's due time, not before it: the next run is always another day's.
  const from = run.dueAt && Date.parse(run.dueAt) > now.getTime() ? new Date(run.dueAt) : now;
  await scheduleNextCheck(ports, run.tenantId, { settings, now: from });
  return ports.check(run.tenantId, run.day);
}
