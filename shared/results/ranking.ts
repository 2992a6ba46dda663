/**
 * Fair rankings and changes beyond chance (issue 49). A group is ranked by what its answers make certain, not by its
 * point score: best first by the lower end of its 95% interval, worst first by the upper end, so that a store with
 * three answers is never first or last by chance. A change against the period before is significant only when the
 * 95% interval of the difference excludes zero.
 */

/** Below this many answers a store or an employee is listed apart, unranked, unless the tenant sets `minAnswersToRank`. */
export const DEFAULT_MIN_ANSWERS_TO_RANK = 5;

/** A figure and its 95% interval, unrounded: what rankings and changes are computed from (report.ts makes them). */
export interface Estimate {
  value: number;
  low: number;
  high: number;
}

export interface Interval {
  low: number;
  high: number;
}

/** What ranking reads of a row: its answers and its interval (null: no answers). */
export interface Rankable {
  answers: number;
  interval: Interval | null;
}

export type Ranked<T> = T & {
  /** 1 for the best by the lower end of the interval; null when unranked. */
  rank: number | null;
  /** 1 for the worst by the upper end of the interval; null when unranked. */
  worst_rank: number | null;
};

/**
 * The rows with their ranks, best first, then those with fewer than `minAnswers` answers (or no interval), unranked, by
 * their answers. Ties on the lower end go to the row with more answers: the same share on more answers never ranks
 * below. Pure, for the results, the workspace and the digest alike.
 */
export function rankByInterval<T extends Rankable>(rows: readonly T[], minAnswers: number): Ranked<T>[] {
  const rankable = (row: T): row is T & { interval: Interval } => row.interval !== null && row.answers >= minAnswers;
  const ranked = rows.filter(rankable);
  const apart = rows.filter((row) => !rankable(row)).sort((a, b) => b.answers - a.answers);
  const best = [...ranked].sort((a, b) => b.interval.low - a.interval.low || b.answers - a.answers || b.interval.high - a.interval.high);
  const worst = [...ranked].sort((a, b) => a.interval.high - b.interval.high || b.answers - a.answers || a.interval.low - b.interval.low);
  const worstRank = new Map(worst.map((row, i) => [row, i + 1]));
  return [
    ...best.map((row, i) => ({ ...row, rank: i + 1, worst_rank: worstRank.get(row)! })),
    ...apart.map((row) => ({ ...row, rank: null, worst_rank: null })),
  ];
}

export interface Change {
  /** This period's figure minus the period before's. */
  value: number;
  /** The 95% interval of the difference. */
  low: number;
  high: number;
  /** True only when that interval excludes zero. */
  significant: boolean;
}

/**
 * The difference of two independent estimates with its 95% interval by the method of variance estimates recovery
 * (Newcombe 1998's method 10 for two proportions, Zou and Donner 2008 for any two intervals): each side of the
 * difference's interval joins the near sides of the two intervals.
 */
export function changeOf(now: Estimate, before: Estimate): Change {
  const value = now.value - before.value;
  const low = value - Math.hypot(now.value - now.low, before.high - before.value);
  const high = value + Math.hypot(now.high - now.value, before.value - before.low);
  return { value, low, high, significant: low > 0 || high < 0 };
}

const Z95 = 1.959964;

/**
 * A count of events in a period (a theme's negative mentions) as an estimate of its rate, with the score interval of a
 * Poisson count (x + z²/2 ± z √(x + z²/4)): never of width 0, 0 to 3.8 for no event. Compared with `changeOf`, as
 * two independent counts of periods of the same length.
 */
export function countEstimate(count: number): Estimate {
  const centre = count + Z95 ** 2 / 2;
  const half = Z95 * Math.sqrt(count + Z95 ** 2 / 4);
  return { value: count, low: Math.max(0, centre - half), high: centre + half };
}

/** The change of a count against the count of the period of the same length before, with its interval, rounded to 0.1. */
export function countChange(now: number, before: number): Change {
  const change = changeOf(countEstimate(now), countEstimate(before));
  const round = (value: number) => Math.round(value * 10) / 10;
  return { value: change.value, low: round(change.low), high: round(change.high), significant: change.significant };
}
