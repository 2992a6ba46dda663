import { CLOSED_STATUSES } from '../case-status.js';
import { countersOf, merge, type Counted, type CounterDelta, type Tally } from './tally.js';

/**
 * What each case transition adds to the result counters, beside the answers' counts (`tally.ts`): the cases
 * repository writes these deltas with the transition's own conditional write, as `writeAnswer` writes an answer's,
 * so a redelivered transition counts nothing twice. Every count of a case lands on the UTC day the case was opened
 * (as a response lands on its survey's day): in any period, resolved and recovered cases never outnumber the cases
 * opened, and a rate's numerator and denominator are the same cases.
 *
 * Counter names: `co` cases opened; `fc` cases contacted, `ft<i>` of them in first-contact bucket i; `rs` cases
 * resolved, `rw` of them within their deadline; `md` cases that missed their deadline (marked overdue while open,
 * resolved after it, or closed unresolved), so that `rw + md` are the cases whose deadline is decided; `ra` recovery
 * surveys answered, `ry` of them "yes, solved".
 */

/** What a case transition needs of its case: where its counts go, and when it was opened and is due. */
export interface CountedCase {
  journeyId: number;
  storeId: number;
  employeeId: number;
  /** ISO instant the case was opened. */
  openedAt: string;
  /** ISO instant the case is due. */
  dueAt: string;
}

/**
 * Upper bounds (minutes, inclusive) of the time-to-first-contact buckets; the last bucket, `ft<length>`, is open
 * (over a week). A median read from them is known to the bucket (`medianRange`), no finer.
 */
export const FIRST_CONTACT_BUCKETS = [15, 30, 60, 120, 240, 480, 1440, 2880, 4320, 10080] as const;

const where = (c: CountedCase): Counted => ({ journeyId: c.journeyId, storeId: c.storeId, employeeId: c.employeeId });
const tally = (c: CountedCase, add: Record<string, number>): Tally => ({
  journeyId: c.journeyId,
  deltas: countersOf(where(c), c.openedAt.slice(0, 10), Object.fromEntries(Object.entries(add).filter(([, n]) => n !== 0))),
});

/** The bucket a wait of `minutes` falls in. */
export const firstContactBucket = (minutes: number): number => {
  const index = FIRST_CONTACT_BUCKETS.findIndex((bound) => minutes <= bound);
  return index === -1 ? FIRST_CONTACT_BUCKETS.length : index;
};

/** A case opened: one more case. */
export const caseOpenedTally = (c: CountedCase): Tally => tally(c, { co: 1 });

/** A case's first contact at `at` (once per case): one more contacted, in the bucket of its wait since it opened. */
export function firstContactTally(c: CountedCase, at: Date): Tally {
  const minutes = Math.max(0, (at.getTime() - Date.parse(c.openedAt)) / 60_000);
  return tally(c, { fc: 1, [`ft${firstContactBucket(minutes)}`]: 1 });
}

/** A recovery survey answered (once per case): one more answered, and one more recovered on "yes". */
export const recoveryTally = (c: Omit<CountedCase, 'dueAt'>, recovered: boolean): Tally =>
  tally({ ...c, dueAt: c.openedAt }, { ra: 1, ry: recovered ? 1 : 0 });

/** Where a case stands, as its counts follow it (the `cases` service's `CaseRecord` has these and more). */
export interface CaseProgress extends CountedCase {
  status: string;
  firstContactAt: string | null;
  closedAt: string | null;
  /** Marked overdue by the deadline check (once `dueAt` passed while it was open). */
  overdue: boolean;
}

const closed = (c: CaseProgress | undefined) => c !== undefined && (CLOSED_STATUSES as readonly string[]).includes(c.status);

/**
 * The deltas a case's write carries, from `current` (none: it is being opened) to `next`: opened; first contacted;
 * resolved (within its deadline or not); its deadline missed, once: marked overdue while open, or closed without
 * being resolved in time (a case marked overdue counts as missed even if it is resolved before `dueAt`, within the
 * deadline check's tolerance). The write is conditional on the case it read, so each counts once.
 */
export function caseDeltas(current: CaseProgress | undefined, next: CaseProgress): CounterDelta[] {
  const tallies: Tally[] = [];
  if (!current) tallies.push(caseOpenedTally(next));
  if (next.firstContactAt && !current?.firstContactAt) tallies.push(firstContactTally(next, new Date(next.firstContactAt)));
  const closing = closed(next) && !closed(current);
  const resolved = closing && next.status === 'resolved';
  const at = new Date(next.closedAt ?? next.firstContactAt ?? next.openedAt);
  const inTime = resolved && !current?.overdue && !next.overdue && at.getTime() <= Date.parse(next.dueAt);
  const missed = !current?.overdue && (next.overdue || (closing && !inTime));
  if (resolved || missed) tallies.push(tally(next, { rs: resolved ? 1 : 0, rw: inTime ? 1 : 0, md: missed ? 1 : 0 }));
  return merge(tallies.flatMap((t) => t.deltas));
}

/** A wait's range in minutes: over `low`, at most `high` (none: no bound, over a week). */
export interface WaitRange {
  low: number;
  high: number | null;
}

const bucketRange = (i: number): WaitRange => ({
  low: i === 0 ? 0 : FIRST_CONTACT_BUCKETS[i - 1]!,
  high: FIRST_CONTACT_BUCKETS[i] ?? null,
});

/**
 * The median wait to first contact as the histogram knows it: from the bucket of the lower middle case to that of the
 * upper middle one (the same bucket unless an even count splits across two); null with no contacted case. A wait of
 * 3 minutes is "up to 15", never "8" (what interpolating within the bucket made of it).
 */
export function medianRange(counts: Record<string, number>): WaitRange | null {
  const buckets = Array.from({ length: FIRST_CONTACT_BUCKETS.length + 1 }, (_, i) => Math.max(0, counts[`ft${i}`] ?? 0));
  const total = buckets.reduce((a, b) => a + b, 0);
  if (total <= 0) return null;
  // The 1-based positions of the middle cases, and the bucket each falls in.
  const bucketOf = (position: number) => {
    let below = 0;
    return buckets.findIndex((n) => (below += n) >= position);
  };
  const [lower, upper] = [bucketOf(Math.ceil(total / 2)), bucketOf(Math.floor(total / 2) + 1)];
  return { low: bucketRange(lower).low, high: bucketRange(upper).high };
}

/**
 * The median wait to first contact, in minutes, from summed bucket counts: the bucket holding the middle case,
 * linearly interpolated within it (the grouped-data median, an estimate finer than the buckets: the API keeps it for
 * integrations, the page shows `medianRange`); null with no contacted case. In the open last bucket
 * it answers the bucket's lower bound (over a week), rounded to the minute.
 */
export function medianMinutes(counts: Record<string, number>): number | null {
  const buckets = Array.from({ length: FIRST_CONTACT_BUCKETS.length + 1 }, (_, i) => counts[`ft${i}`] ?? 0);
  const total = buckets.reduce((a, b) => a + b, 0);
  if (total <= 0) return null;
  const half = total / 2;
  let below = 0;
  for (const [i, n] of buckets.entries()) {
    if (n > 0 && below + n >= half) {
      const low = i === 0 ? 0 : FIRST_CONTACT_BUCKETS[i - 1]!;
      const high = FIRST_CONTACT_BUCKETS[i];
      if (high === undefined) return low;
      return Math.round(low + ((half - below) / n) * (high - low));
    }
    below += n;
  }
  return null;
}
