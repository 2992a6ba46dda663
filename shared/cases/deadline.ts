import { DAYS, type WeekDay } from '../settings/scales.js';

/**
 * A case's deadline counts business hours: only the time inside the tenant's working hours, in its time zone, on its
 * working days. Nights, weekends and other closed days are skipped; an hour is an hour of real time, so a working
 * window that a DST change shortens counts what it really holds.
 */

/**
 * When a tenant works (its `cases.workingHours`, validated by the tenant file's schema): on `days`, from `from` to `to`
 * (`HH:MM`) in `timeZone` (IANA). A `to` not after `from` ends the next morning: a night shift (22:00 to 06:00), or a
 * whole day (00:00 to 00:00); its day is the one it starts on.
 */
export interface WorkingHours {
  timeZone: string;
  days: readonly WeekDay[];
  from: string;
  to: string;
}

const HOUR = 3_600_000;
const DAY = 86_400_000;

/**
 * When a case opened at `openedAt` with `deadlineHours` business hours to its first response is due. Opened in closed
 * hours, its clock starts when the next working window opens; a deadline that ends exactly at a window's close is due
 * at that close.
 */
export function caseDueAt(openedAt: Date, deadlineHours: number, hours: WorkingHours): Date {
  let remaining = deadlineHours * HOUR;
  if (!(remaining > 0)) return openedAt;
  const from = minutesOf(hours.from);
  const to = minutesOf(hours.to) + (minutesOf(hours.to) <= from ? 1440 : 0);
  const days = new Set<WeekDay>(hours.days);
  // A night shift that started the day before may still be running when the case opens.
  let day = localDay(openedAt, hours.timeZone) - (to > 1440 ? DAY : 0);
  // Each week holds at least a minute of work, but for a window inside the hour a change of clocks skips, gone that
  // day (once a year): a week more a year, and this many days always reach the largest deadline.
  const weeks = Math.ceil((deadlineHours * 60) / (to - from));
  const limit = (weeks + Math.ceil(weeks / 52) + 1) * 7 + 8;
  for (let i = 0; i <= limit; i++, day += DAY) {
    if (!days.has(weekdayOf(day))) continue;
    const start = Math.max(instantAt(day, from, hours.timeZone), openedAt.getTime());
    const end = instantAt(day, to, hours.timeZone);
    if (end <= start) continue;
    if (end - start >= remaining) return new Date(start + remaining);
    remaining -= end - start;
  }
  throw new Error('The deadline could not be placed within its working hours.');
}

/** `HH:MM` as minutes since midnight. */
const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The wall clock of `instant` in `zone`, as if it were UTC (milliseconds). */
function wallClock(instant: number, zone: string): number {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  const part = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, Number(p.value)]));
  return Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!, part.second!) + (instant % 1000);
}

/** The zone's offset from UTC at `instant`, in milliseconds. */
const offsetAt = (instant: number, zone: string): number => wallClock(instant, zone) - instant;

/** The local calendar day of `instant` in `zone`, as the UTC midnight of the same date. */
const localDay = (instant: Date, zone: string): number => Math.floor(wallClock(instant.getTime(), zone) / DAY) * DAY;

const weekdayOf = (day: number): WeekDay => DAYS[(new Date(day).getUTCDay() + 6) % 7]!;

/**
 * The instant at which the zone's clocks read `minutes` past midnight of `day` (1440 and more: the next day). A wall
 * time repeated by a change back is its first occurrence; one skipped by a change forward is read with the offset
 * before the change, as clocks that jumped would show it (02:30 on a spring-forward night is 03:30).
 */
export function instantAt(day: number, minutes: number, zone: string): number {
  const wall = day + minutes * 60_000;
  const [before, after] = [offsetAt(wall - DAY, zone), offsetAt(wall + DAY, zone)];
  if (before === after) return wall - before;
  const candidates = [wall - before, wall - after].filter((at) => wallClock(at, zone) === wall);
  return candidates.length ? Math.min(...candidates) : wall - before;
}
