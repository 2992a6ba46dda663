import * as v from 'valibot';

/**
 * A case's deadline counts business hours: only the time inside the tenant's working hours, in its time zone, on its
 * working days. Nights, weekends and other closed days are skipped; an hour is an hour of real time, so a working
 * window that a DST change shortens counts what it really holds.
 */

/** ISO weekdays: 1 is Monday, 7 is Sunday. */
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

const clock = v.pipe(v.string(), v.regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'a time as HH:MM (24:00 is the end of the day)'));
const timeZone = v.pipe(
  v.string(),
  v.check((zone) => {
    try {
      new Intl.DateTimeFormat('en-GB', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'an IANA time zone, such as America/Sao_Paulo'),
);

/** When a tenant works: the tenant file's `workingHours`. A working day runs from `from` to `to` (24:00: midnight). */
export const WorkingHoursSchema = v.pipe(
  v.strictObject({
    timeZone,
    days: v.pipe(v.array(v.picklist([1, 2, 3, 4, 5, 6, 7] as const)), v.minLength(1, 'at least one working day'), v.maxLength(7)),
    from: clock,
    to: clock,
  }),
  v.check((hours) => minutesOf(hours.from) < minutesOf(hours.to), 'the working day must end after it starts (from < to)'),
);
export type WorkingHours = v.InferOutput<typeof WorkingHoursSchema>;

/** Without a tenant's own: Monday to Friday, 09:00 to 18:00 in São Paulo. */
export const DEFAULT_WORKING_HOURS: WorkingHours = {
  timeZone: 'America/Sao_Paulo',
  days: [1, 2, 3, 4, 5],
  from: '09:00',
  to: '18:00',
};
export const DEFAULT_DEADLINE_HOURS = 24;
/** The longest deadline a rule may set: 30 working days of 24 hours. */
export const MAX_DEADLINE_HOURS = 720;
export const DeadlineHoursSchema = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_DEADLINE_HOURS));

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
  const [from, to] = [minutesOf(hours.from), minutesOf(hours.to)];
  const days = new Set<number>(hours.days);
  let day = localDay(openedAt, hours.timeZone);
  // Each week holds at least a minute of work, so this many days always reach the largest deadline.
  const limit = Math.ceil((deadlineHours * 60) / Math.max(1, to - from)) * 7 + 7;
  for (let i = 0; i <= limit; i++, day += DAY) {
    if (!days.has(isoWeekday(day))) continue;
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

const isoWeekday = (day: number): number => ((new Date(day).getUTCDay() + 6) % 7) + 1;

/**
 * The instant at which the zone's clocks read `minutes` past midnight of `day` (24:00 is the next midnight). A wall
 * time repeated by a change back is its first occurrence; one skipped by a change forward is read with the offset
 * before the change, as clocks that jumped would show it (02:30 on a spring-forward night is 03:30).
 */
function instantAt(day: number, minutes: number, zone: string): number {
  const wall = day + minutes * 60_000;
  const [before, after] = [offsetAt(wall - DAY, zone), offsetAt(wall + DAY, zone)];
  if (before === after) return wall - before;
  const candidates = [wall - before, wall - after].filter((at) => wallClock(at, zone) === wall);
  return candidates.length ? Math.min(...candidates) : wall - before;
}
