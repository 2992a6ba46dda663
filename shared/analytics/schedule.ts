import * as v from 'valibot';
import { addDays } from '../dates.js';
import { timeZoneOf } from '../locale.js';
import type { TimerScheduler } from '../timers.js';
import { dayBounds, localDayOf, type AnalyticsExport } from './export.js';
import type { AnalyticsPorts } from './ports.js';

/**
 * The daily analytics export's schedule (docs/analytics.md): one due timer per tenant, parked for the next day at
 * EXPORT_AFTER_MINUTES past its local midnight. When it fires, the next run is parked, then the day before is claimed,
 * written, the days a late change marked written again, and the days past retention deleted: the work of one invocation is one tenant's day, whatever the number of
 * tenants, and no run reads a list of tenants. A timer that fires twice (a release sent again) writes its day once.
 */

/** The run waits this long past the tenant's midnight: answers queued at 23:59 are in the table by then. */
export const EXPORT_AFTER_MINUTES = 30;
/** A claim older than this is a crash's: the day may be claimed again (a day's export takes under the queue's 5 minutes). */
export const EXPORT_CLAIM_SECONDS = 600;

/** The analytics queue's message: one tenant's day to write (its timer's). */
export const AnalyticsMessage = v.object({
  version: v.literal(1),
  tenantId: v.number(),
  /** The tenant's day to write, YYYY-MM-DD. */
  day: v.pipe(v.string(), v.isoDate()),
  /** When the run is due (set by its timer). */
  dueAt: v.optional(v.string()),
});
export type AnalyticsMessage = v.InferOutput<typeof AnalyticsMessage>;

/** One write per tenant and day: a claim before it, then the mark that it is written. */
export interface ExportClaims {
  /** True for the one caller that may write: never written, nor claimed in the last EXPORT_CLAIM_SECONDS. */
  claim(tenantId: number, day: string, now: Date): Promise<boolean>;
  done(tenantId: number, day: string, now: Date): Promise<void>;
  /** Gives back this caller's claim (the write failed: the message is retried). */
  release(tenantId: number, day: string, now: Date): Promise<void>;
}

export interface SchedulePorts {
  settings: AnalyticsPorts['settings'];
  claims: ExportClaims;
  timer: TimerScheduler<AnalyticsMessage>;
}

/** The next run after `now`: the coming local midnight of `zone`, plus EXPORT_AFTER_MINUTES; it writes the day that ended. */
export function nextExport(now: Date, zone: string): { day: string; dueAt: Date } {
  const today = localDayOf(now.getTime(), zone);
  for (const day of [today, addDays(today, 1)]) {
    const dueAt = new Date(Date.parse(dayBounds(day, zone).from) + EXPORT_AFTER_MINUTES * 60_000);
    if (dueAt > now) return { day: addDays(day, -1), dueAt };
  }
  throw new Error('unreachable: a local midnight falls within every 48 hours');
}

export type ScheduledOutcome = 'written' | 'duplicate';

export function analyticsSchedule(ports: SchedulePorts, exporter: AnalyticsExport) {
  /** Parks the tenant's next run (one timer per tenant and day: parked twice, one timer); answers when it is due. */
  async function scheduleNext(tenantId: number, now: Date): Promise<{ day: string; dueAt: Date }> {
    const next = nextExport(now, timeZoneOf(await ports.settings(tenantId)));
    await ports.timer.schedule({ version: 1, tenantId, day: next.day }, next.dueAt, now);
    return next;
  }

  /**
   * A run that fired: the next run parked first (the same timer however often this one fires, so a failure below
   * never ends the schedule), then its day written once (claimed) and the days past retention deleted.
   */
  async function handle(message: AnalyticsMessage, now: Date): Promise<ScheduledOutcome> {
    const { tenantId, day } = message;
    await scheduleNext(tenantId, now);
    if (!(await ports.claims.claim(tenantId, day, now))) return 'duplicate';
    try {
      await exporter.exportDay(tenantId, day, true);
      await exporter.rewriteDirty(tenantId, day);
      await exporter.expireDays(tenantId, addDays(day, 1));
    } catch (error) {
      await ports.claims.release(tenantId, day, now);
      throw error;
    }
    await ports.claims.done(tenantId, day, now);
    return 'written';
  }

  return { scheduleNext, handle };
}
