import type { Indicator, Settings } from '../tenants/config-schema.js';

/**
 * Results are counted as answers arrive, never computed from the answers at read time. Each answer (and each
 * survey sent) adds to a few counters: for its day and month, the journey as a whole, its store, its employee, and
 * its employee at its store. A counter holds sums from which every figure of a report follows: answers `n`, the
 * sum of scores `sum`, promoters `p` and detractors `d` (for an NPS scale), surveys `sent` and the answers to them `r`, and the same for each
 * class (`c<id>n`, `c<id>sum`, `c<id>p`, `c<id>d`). Corrections subtract the old answer and add the new one.
 */
export type Dimension = 'all' | 'store' | 'employee' | 'storeEmployee';

export interface CounterDelta {
  dimension: Dimension;
  /** The store, the employee, or the store then the employee; none for `all`. */
  ids: number[];
  /** UTC day the counts belong to, YYYY-MM-DD. */
  day: string;
  add: Record<string, number>;
}

/** Where a transaction's counts go. */
export interface Counted {
  journeyId: number;
  storeId: number;
  employeeId: number;
}

export interface ScoredAnswer {
  indicator: Indicator;
  score: number;
  /** Each class answered, with its own indicator. */
  items: { classId: number; indicator: Indicator; score: number }[];
  /** When the answer was given (a correction keeps the first answer's time). */
  answeredAt: string;
  /** An answer to a survey this service sent (counted in the response rate), not a rating registered with the sale. */
  surveyed: boolean;
}

/** Promoters score 9 or 10 and detractors 0 to 6, on the 0-10 scale only. */
const npsShare = (indicator: Indicator, score: number) =>
  indicator === 'nps' ? { p: score >= 9 ? 1 : 0, d: score <= 6 ? 1 : 0 } : { p: 0, d: 0 };

/** The counts one answer adds (sign 1) or takes back (sign -1). */
export function answerCounts(answer: ScoredAnswer, sign: 1 | -1): Record<string, number> {
  const main = npsShare(answer.indicator, answer.score);
  const counts: Record<string, number> = {
    n: sign,
    sum: sign * answer.score,
    p: sign * main.p,
    d: sign * main.d,
    r: answer.surveyed ? sign : 0,
  };
  for (const item of answer.items) {
    const share = npsShare(item.indicator, item.score);
    counts[`c${item.classId}n`] = sign;
    counts[`c${item.classId}sum`] = sign * item.score;
    counts[`c${item.classId}p`] = sign * share.p;
    counts[`c${item.classId}d`] = sign * share.d;
  }
  return counts;
}

/** The four counters of a transaction on one day, each adding `add`. */
export function countersOf(where: Counted, day: string, add: Record<string, number>): CounterDelta[] {
  return [
    { dimension: 'all', ids: [], day, add },
    { dimension: 'store', ids: [where.storeId], day, add },
    { dimension: 'employee', ids: [where.employeeId], day, add },
    { dimension: 'storeEmployee', ids: [where.storeId, where.employeeId], day, add },
  ];
}

/** Deltas added together per counter, the ones that cancel out dropped: a correction to the same score writes nothing. */
export function merge(deltas: CounterDelta[]): CounterDelta[] {
  const merged = new Map<string, CounterDelta>();
  for (const delta of deltas) {
    const id = `${delta.dimension}#${delta.ids.join('#')}#${delta.day}`;
    const into = merged.get(id) ?? { ...delta, add: {} };
    for (const [name, value] of Object.entries(delta.add)) into.add[name] = (into.add[name] ?? 0) + value;
    merged.set(id, into);
  }
  return [...merged.values()]
    .map((delta) => ({ ...delta, add: Object.fromEntries(Object.entries(delta.add).filter(([, value]) => value !== 0)) }))
    .filter((delta) => Object.keys(delta.add).length > 0);
}

/** What recording an answer adds; with `previous` (a correction of a counted answer), what it moves. */
export function answerTally(where: Counted, answer: ScoredAnswer, previous?: ScoredAnswer): CounterDelta[] {
  return merge([
    ...(previous ? countersOf(where, previous.answeredAt.slice(0, 10), answerCounts(previous, -1)) : []),
    ...countersOf(where, answer.answeredAt.slice(0, 10), answerCounts(answer, 1)),
  ]);
}

/** What sending a survey adds: once per survey, on the day its first attempt went out. */
export const sentTally = (where: Counted, at: Date): CounterDelta[] => countersOf(where, at.toISOString().slice(0, 10), { sent: 1 });

/** The counters one write moves, within one journey's partitions. */
export interface Tally {
  journeyId: number;
  deltas: CounterDelta[];
}

/** What results read of a rated transaction (its fields as the transaction record names them). */
export interface Rated {
  journey_id: number;
  rating: { score: number } | null;
  rating_items: { class_id: number; score: number }[];
}

/** A transaction's rating as results count it, each class with its configured indicator; none when unrated. */
export function scoredRating(
  transaction: Rated,
  settings: Pick<Settings, 'journeys' | 'classes'>,
  answeredAt: string,
  surveyed: boolean,
): ScoredAnswer | undefined {
  const journey = settings.journeys.find((j) => j.id === transaction.journey_id);
  if (!journey || !transaction.rating) return undefined;
  const items = transaction.rating_items.flatMap((item) => {
    const configured = settings.classes.find((c) => c.id === item.class_id);
    return configured ? [{ classId: item.class_id, indicator: configured.type, score: item.score }] : [];
  });
  return { indicator: journey.indicator, score: transaction.rating.score, items, answeredAt, surveyed };
}

export const countedOf = (transaction: { journey_id: number; store_id: number; employee_id: number }): Counted => ({
  journeyId: transaction.journey_id,
  storeId: transaction.store_id,
  employeeId: transaction.employee_id,
});
