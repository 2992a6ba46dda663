import { countersOf, merge, type Counted, type CounterDelta, type Tally } from './tally.js';

/**
 * What each case transition adds to the result counters, beside the answers' counts (`tally.ts`): the cases
 * repository writes these deltas with the transition's own conditional write, as `writeAnswer` writes an answer's,
 * so a redelivered transition counts nothing twice. Every count of a case lands on the UTC day the case was opened
 * (as a response lands on its survey's day): in any period, resolved and recovered cases never outnumber the cases
 * opened, and a rate's numerator and denominator are the same cases.
 *
 * Counter names: `co` cases opened; `fc` cases contacted, `ft<i>` of them in first-contact bucket i; `rs` cases
 * resolved, `rw` of them within their deadline; `ra` recovery surveys answered, `ry` of them "yes, solved".
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
 * (over a week). A median read from them is exact to the bucket, interpolated within it (`medianMinutes`).
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

/** A case resolved at `at` (once per case): one more resolved, and within its deadline when `at` is not past it. */
export const resolvedTally = (c: CountedCase, at: Date): Tally => tally(c, { rs: 1, rw: at.getTime() <= Date.parse(c.dueAt) ? 1 : 0 });

/** A recovery survey answered (once per case): one more answered, and one more recovered on "yes". */
export const recoveryTally = (c: Omit<CountedCase, 'dueAt'>, recovered: boolean): Tally =>
  tally({ ...c, dueAt: c.openedAt }, { ra: 1, ry: recovered ? 1 : 0 });

/** Where a case stands, as its counts follow it (the `cases` service's `CaseRecord` has these and more). */
export interface CaseProgress extends CountedCase {
  status: string;
  firstContactAt: string | null;
  closedAt: string | null;
}

/**
 * The deltas a case's write carries, from `current` (none: it is being opened) to `next`: opened; first contacted;
 * resolved (within its deadline or not). The write is conditional on the case it read, so each counts once.
 */
export function caseDeltas(current: CaseProgress | undefined, next: CaseProgress): CounterDelta[] {
  const tallies: Tally[] = [];
  if (!current) tallies.push(caseOpenedTally(next));
  if (next.firstContactAt && !current?.firstContactAt) tallies.push(firstContactTally(next, new Date(next.firstContactAt)));
  if (next.status === 'resolved' && current?.status !== 'resolved')
    tallies.push(resolvedTally(next, new Date(next.closedAt ?? next.firstContactAt ?? next.openedAt)));
  return merge(tallies.flatMap((t) => t.deltas));
}

/**
 * The median wait to first contact, in minutes, from summed bucket counts: the bucket holding the middle case,
 * linearly interpolated within it (the grouped-data median); null with no contacted case. In the open last bucket
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
