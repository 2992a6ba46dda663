import * as v from 'valibot';
import { addDays } from '../dates.js';
import { timeZoneOf } from '../locale.js';
import type { TimerScheduler } from '../timers/timers.js';
import { LinkMessage, type ExportChainsService, type LinkOutcome } from './chain.js';
import { localDayOf } from '../local-day.js';
import { dayBounds, type AnalyticsExport } from './export.js';
import type { AnalyticsPorts } from './ports.js';

/**
 * The daily analytics export's schedule (docs/analytics.md): one due timer per tenant, parked for the next day at
 * EXPORT_AFTER_MINUTES past its local midnight. When it fires, the next run is parked, then a chain (chain.ts) writes
 * the day before and the days a late change marked, and deletes the days past retention: the work is one tenant's
 * days, whatever the number of tenants, and no run reads a list of tenants. A timer that fires twice (a release sent
 * again) writes its day once: the chain, named by the day, is its claim.
 */

/** The run waits this long past the tenant's midnight: answers queued at 23:59 are in the table by then. */
export const EXPORT_AFTER_MINUTES = 30;
/** A tenant's daily run: the day to write (its timer's). */
export const RunMessage = v.object({
  version: v.literal(1),
  tenantId: v.number(),
  /** The tenant's day to write, YYYY-MM-DD. */
  day: v.pipe(v.string(), v.isoDate()),
  /** When the run is due (set by its timer). */
  dueAt: v.optional(v.string()),
});
export type RunMessage = v.InferOutput<typeof RunMessage>;
/** The analytics queue's message: a tenant's daily run, or a chain's next link. */
export const AnalyticsMessage = v.union([LinkMessage, RunMessage]);
export type AnalyticsMessage = v.InferOutput<typeof AnalyticsMessage>;

export interface SchedulePorts {
  settings: AnalyticsPorts['settings'];
  timer: TimerScheduler<RunMessage>;
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

/**
 * The day whose surveys have all settled by the run of `day`, which writes it once more: a survey goes out at most its
 * first attempt's wait and a night of quiet hours after its transaction, then is answered or lapses within its journey's
 * validity; a lapse writes nothing (no mark), so only this second writing shows it. Undefined when that day is past the
 * tenant's retention (it is deleted, not written).
 */
export function settledDay(
  day: string,
  settings: {
    journeys: readonly { surveyValidityDays: number; attempts?: readonly { afterMinutes: number }[] | undefined }[];
    privacy?: { retentionDays?: number | null | undefined } | undefined;
  },
): string | undefined {
  if (!settings.journeys.length) return undefined;
  const settleDays = Math.max(
    ...settings.journeys.map((journey) => Math.ceil((journey.attempts?.[0]?.afterMinutes ?? 0) / 1440) + 1 + journey.surveyValidityDays),
  );
  // A day more: the zone's day and the instants' UTC days need not line up.
  const settled = addDays(day, -(settleDays + 1));
  const retentionDays = settings.privacy?.retentionDays;
  return retentionDays && settled < addDays(day, 1 - retentionDays) ? undefined : settled;
}

/** The daily run's chain: one per tenant and day, so the run that fires twice finds it. */
export const runChainId = (day: string) => `run-${day}`;

export function analyticsSchedule(ports: SchedulePorts, exporter: AnalyticsExport, chains: ExportChainsService) {
  /** Parks the tenant's next run (one timer per tenant and day: parked twice, one timer); answers when it is due. */
  async function scheduleNext(tenantId: number, now: Date): Promise<{ day: string; dueAt: Date }> {
    const next = nextExport(now, timeZoneOf(await ports.settings(tenantId)));
    await ports.timer.schedule({ version: 1, tenantId, day: next.day }, next.dueAt, now);
    return next;
  }

  /**
   * A run that fired: the next run parked first (the same timer however often this one fires, so a failure below
   * never ends the schedule), then a chain begun (once: named by the day) that writes its day, the days a late
   * change marked that have ended and the day whose surveys have settled (settledDay), then clears those marks and deletes the days past retention; its first link runs here.
   */
  async function runDay(message: RunMessage, now: Date): Promise<LinkOutcome> {
    const { tenantId, day } = message;
    await scheduleNext(tenantId, now);
    const [marked, settings] = await Promise.all([exporter.markedDays(tenantId, day), ports.settings(tenantId)]);
    const settled = settledDay(day, settings);
    const days = [...new Set([day, ...marked.days, ...(settled ? [settled] : [])])];
    return chains.start(runChainId(day), { tenantId, days, then: { run: { day, marks: marked.marks } } }, now);
  }

  /** A message of the analytics queue: a daily run, or a chain's next link. */
  const handle = (message: AnalyticsMessage, now: Date): Promise<LinkOutcome> =>
    'chain' in message ? chains.run(message, now) : runDay(message, now);

  return { scheduleNext, handle };
}
