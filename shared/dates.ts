import type { FieldProblem } from './errors.js';

/**
 * The date rule of every entry that takes days (the API, the workspace's pages and exports): a day is a calendar date
 * within CALENDAR's years, and a period is two such days, in order, at most so many days apart. Whatever loops over a
 * period loops a count computed from its ends (`monthsOf`), so its work is bounded by this rule.
 */

/** The years any date this service takes may fall in: loops and keys over dates stay bounded. */
export const CALENDAR = { minYear: 1900, maxYear: 2100 } as const;
/** The most days a period read at once spans (results, answers, cases): a year and a month. */
export const MAX_PERIOD_DAYS = 400;
export const CALENDAR_DATE_MESSAGE = `is not a valid calendar date between ${CALENDAR.minYear} and ${CALENDAR.maxYear}`;

export const DAY_MS = 86_400_000;
export const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a YYYY-MM-DD string names a day that exists (1998-04-31 does not) within CALENDAR's years. */
export function isCalendarDate(value: string): boolean {
  if (!DATE_SHAPE.test(value)) return false;
  const year = Number(value.slice(0, 4));
  if (year < CALENDAR.minYear || year > CALENDAR.maxYear) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
/** The day `days` after `day` (before, when negative). */
export const addDays = (day: string, days: number): string => dayOf(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
/** The days from `from` to `to`, both included: 0 or less when `to` is before `from`. */
export const daysIn = (from: string, to: string): number => (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;

/** The first day of the `days` days that end on `to`, not before the calendar's first; `to` when it is no calendar date. */
export function periodEnding(to: string, days: number): string {
  if (!isCalendarDate(to)) return to;
  const from = addDays(to, 1 - days);
  return from < `${CALENDAR.minYear}-01-01` ? `${CALENDAR.minYear}-01-01` : from;
}

/** The period of the same length just before `from`..`to`; none when it would start before the calendar's first year. */
export function periodBefore(from: string, to: string): { from: string; to: string } | undefined {
  const days = daysIn(from, to);
  const before = { from: addDays(from, -days), to: addDays(from, -1) };
  return periodFault(before.from, before.to) ? undefined : before;
}

/** The days (YYYY-MM-DD) of a period of calendar dates, in order. */
export const daysOf = (from: string, to: string): string[] =>
  Array.from({ length: Math.max(0, daysIn(from, to)) }, (_, i) => addDays(from, i));

/** What is wrong with a period: a day outside the calendar, the days in the wrong order, or too many of them. */
export type PeriodFault = 'date' | 'order' | 'span';

export function periodFault(from: string, to: string, maxDays = MAX_PERIOD_DAYS): PeriodFault | undefined {
  if (!isCalendarDate(from) || !isCalendarDate(to)) return 'date';
  const days = daysIn(from, to);
  return days < 1 ? 'order' : days > maxDays ? 'span' : undefined;
}

/** The period's fault as an API names it (none when it is a period to read); `paths` name its two fields. */
export function periodProblems(
  from: string,
  to: string,
  { maxDays = MAX_PERIOD_DAYS, paths = ['from', 'to'] }: { maxDays?: number; paths?: [string, string] } = {},
): FieldProblem[] {
  const [fromPath, toPath] = paths;
  switch (periodFault(from, to, maxDays)) {
    case 'date':
      return [
        ...(isCalendarDate(from) ? [] : [{ path: fromPath, message: CALENDAR_DATE_MESSAGE }]),
        ...(isCalendarDate(to) ? [] : [{ path: toPath, message: CALENDAR_DATE_MESSAGE }]),
      ];
    case 'order':
      return [{ path: toPath, message: `must not be before ${fromPath}` }];
    case 'span':
      return [{ path: toPath, message: `at most ${maxDays} days after ${fromPath}, both included` }];
    default:
      return [];
  }
}

/** The months (YYYY-MM) a period of calendar dates touches: as many as its ends are months apart, never more. */
export function monthsOf(from: string, to: string): string[] {
  const index = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;
  const first = index(from);
  return Array.from({ length: Math.max(0, index(to) - first + 1) }, (_, i) => {
    const month = first + i;
    return `${String(Math.floor(month / 12)).padStart(4, '0')}-${String((month % 12) + 1).padStart(2, '0')}`;
  });
}
