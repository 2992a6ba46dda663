/**
 * A tenant's days, as the analytics export names them (its time zone), apart from the export itself: the survey
 * delivery and answers read them without the Parquet writer.
 */

/** The tenant's day an instant falls on. */
export const localDayOf = (instant: string | number, zone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(instant));

/**
 * Whether a change to a survey (sent, answered, failed) at `now` comes after its registration's day in the tenant's
 * zone: its row in the surveys dataset may be written already, so the change marks that day (docs/analytics.md, "Late
 * changes"). A change on the day itself is in the day's own run, which starts EXPORT_AFTER_MINUTES after it ends.
 */
export const afterItsDay = (registeredAt: string, now: Date, zone: string): boolean =>
  localDayOf(now.getTime(), zone) > localDayOf(registeredAt, zone);
