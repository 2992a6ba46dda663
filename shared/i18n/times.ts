import { isCalendarDate } from '../dates.js';
import type { Locale } from '../locale.js';

/**
 * How a person reads a time (pages, alert e-mails): in the tenant's time zone, written the locale's way, the zone
 * named ("05/03/2026, 12:04 BRT"), since a manager may read it away from the tenant's zone. The API's JSON and CSV
 * stay UTC ISO: integrations read them.
 */
export interface Times {
  /** An instant (ISO or Date) as a person reads it, its zone named. */
  when(instant: string | Date): string;
  /** A calendar day (YYYY-MM-DD, a date without a zone) written the locale's way. */
  day(day: string): string;
}

const made = new Map<string, Times>();

/** The locale's way of writing times in `timeZone`, made at its first use in a container. */
export function timesOf(locale: Locale, timeZone: string): Times {
  const id = `${locale}\u0000${timeZone}`;
  const found = made.get(id);
  if (found) return found;
  const instant = new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  });
  // A day is a date, not an instant: written as the calendar says it, whatever the zone.
  const date = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' });
  const times: Times = {
    when: (at) => instant.format(typeof at === 'string' ? new Date(at) : at),
    day: (day) => (isCalendarDate(day) ? date.format(new Date(`${day}T00:00:00Z`)) : day),
  };
  made.set(id, times);
  return times;
}
