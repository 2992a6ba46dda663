import type { Settings } from '../settings/settings.js';
import type { Indicator } from '../settings/scales.js';
import type { SourceName } from '../channels.js';
import { withSourceCells } from './sources.js';
import { driverCounts, driverItemsOf } from './driver-cells.js';

/**
 * Results are counted as answers arrive, never computed from the answers at read time. Each answer (and each
 * survey sent) adds to a few counters: for its day and month, the journey as a whole, its store, its employee, and
 * its employee at its store. A counter holds sums from which every figure of a report follows: answers `n`, the
 * sum of scores `sum`, promoters `p` and detractors `d` (for an NPS scale), surveys `sent` and the answers to them `r`, and the same for each
 * class (`c<id>n`, `c<id>sum`, `c<id>p`, `c<id>d`), with the surveys sent that asked it `c<id>a` and the responses that
 * rated it `c<id>r`. Corrections subtract the old answer and add the new one.
 *
 * A response `r` counts on the day its survey was sent, beside that survey's `sent`, never on the day it was
 * answered: so in any period, and for any store or employee, responses never outnumber the surveys sent (a survey
 * sent on the 31st and answered on the 1st counts for the 31st). An answer to a survey none of whose attempts was
 * sent (the chatbot reached the customer, a provider refused every attempt) counts as an answer, not a response.
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
  /**
   * The UTC day (YYYY-MM-DD) its survey's first attempt was sent, on which it counts as a response; null for an
   * answer to a survey never sent and for a rating registered with the sale.
   */
  sentOn: string | null;
  /** Where the answer came from: a QR code's or a kiosk's counts also go to their source's cells (`sources.ts`). */
  source?: SourceName | undefined;
  /**
   * The journey's driver items (`driver-cells.ts`) when the answer rated every one of them: only such an answer counts in
   * the drivers' cells (a regression needs every item of each answer it reads).
   */
  drivers?: number[] | undefined;
}

/** Promoters score 9 or 10 and detractors 0 to 6, on the 0-10 scale only. */
const npsShare = (indicator: Indicator, score: number) =>
  indicator === 'nps' ? { p: score >= 9 ? 1 : 0, d: score <= 6 ? 1 : 0 } : { p: 0, d: 0 };

/** The counts one answer adds (sign 1) or takes back (sign -1) on the day it was answered (its response is apart). */
export function answerCounts(answer: ScoredAnswer, sign: 1 | -1): Record<string, number> {
  const main = npsShare(answer.indicator, answer.score);
  const counts: Record<string, number> = {
    n: sign,
    sum: sign * answer.score,
    p: sign * main.p,
    d: sign * main.d,
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

/** A response (sign 1, or -1 taken back): the survey's `r`, and each item it rated its `c<id>r`. */
function responseCounts(answer: ScoredAnswer, sign: 1 | -1): Record<string, number> {
  const counts: Record<string, number> = { r: sign };
  for (const item of answer.items) counts[`c${item.classId}r`] = sign;
  return counts;
}

/** An answer's drivers' counts (`driver-cells.ts`), none unless it rated every driver item. */
function driverCellsOf(answer: ScoredAnswer, sign: 1 | -1): Record<string, number> {
  if (!answer.drivers?.length) return {};
  const items = answer.drivers.map((id) => answer.items.find((item) => item.classId === id));
  return items.every((item) => item !== undefined) ? driverCounts(answer.score, items, sign) : {};
}

/**
 * What one answer adds (sign 1) or takes back (sign -1): its counts on its day, its response on its survey's, each
 * also in its source's cells when it has them; its drivers' counts on its day (no source cells: drivers are read for
 * every source at once).
 */
const answerDeltas = (where: Counted, answer: ScoredAnswer, sign: 1 | -1): CounterDelta[] => [
  ...countersOf(where, answer.answeredAt.slice(0, 10), {
    ...withSourceCells(answerCounts(answer, sign), answer.source),
    ...driverCellsOf(answer, sign),
  }),
  ...(answer.sentOn ? countersOf(where, answer.sentOn, withSourceCells(responseCounts(answer, sign), answer.source)) : []),
];

/**
 * What recording an answer adds; with `previous` (a correction of a counted answer), what it moves. A correction
 * may see a `sentOn` its first answer did not (the survey was sent since): both sides take the one seen now, so a
 * correction never moves the responses.
 */
export function answerTally(where: Counted, answer: ScoredAnswer, previous?: ScoredAnswer): CounterDelta[] {
  return merge([...(previous ? answerDeltas(where, previous, -1) : []), ...answerDeltas(where, answer, 1)]);
}

/**
 * The UTC day a survey's first attempt was sent, when its `sent` was counted (the attempt marked sent and the
 * count are one write); null when no attempt was sent.
 */
export function sentDayOf(transaction: { survey: { sent_at?: string | undefined }; attempts?: { sent_at?: string | undefined }[] }) {
  const times = [transaction.survey.sent_at, ...(transaction.attempts ?? []).map((a) => a.sent_at)].filter(
    (at): at is string => typeof at === 'string',
  );
  return times.length ? times.sort()[0]!.slice(0, 10) : null;
}

/**
 * What sending a survey adds: once per survey, on the day its first attempt went out; `asked`, the classes its journey
 * asks (each item's response rate is over the surveys that asked it, `c<id>a`).
 */
export const sentTally = (where: Counted, at: Date, asked: readonly number[] = []): CounterDelta[] =>
  countersOf(where, at.toISOString().slice(0, 10), { sent: 1, ...Object.fromEntries(asked.map((id) => [`c${id}a`, 1])) });

/** The counters one write moves, within one journey's partitions. */
export interface Tally {
  journeyId: number;
  deltas: CounterDelta[];
  /** The journey's `resultShards`: how many partitions its counters are spread over (1 when absent). */
  shards?: number;
}

/** The journey's tally of `deltas`, spread over the journey's result shards. */
export const journeyTally = (journey: { id: number; resultShards?: number | undefined }, deltas: CounterDelta[]): Tally => ({
  journeyId: journey.id,
  deltas,
  shards: journey.resultShards ?? 1,
});

/**
 * Which of its dimension's `shards` partitions a counter goes to (none: the one unsharded partition of every
 * dimension, as before shards existed, where a deployed tenant's counters stay). The journey's own counter (`all`),
 * which every answer and send of the journey moves, goes where its transaction's id falls, so that its writes spread
 * evenly and its copies are summed on read; a store's, an employee's and a pair's go where their first id falls, so
 * that each keeps one item a period (a report by employee reads each employee once, not once per shard).
 */
export const shardOf = (
  delta: Pick<CounterDelta, 'dimension' | 'ids'>,
  transactionId: number,
  shards: number,
): { dimension: Dimension; index: number } | undefined =>
  shards <= 1 ? undefined : { dimension: delta.dimension, index: (delta.dimension === 'all' ? transactionId : delta.ids[0]!) % shards };

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
  { answeredAt, sentOn, source }: { answeredAt: string; sentOn: string | null; source?: SourceName },
): ScoredAnswer | undefined {
  const journey = settings.journeys.find((j) => j.id === transaction.journey_id);
  if (!journey || !transaction.rating) return undefined;
  const items = transaction.rating_items.flatMap((item) => {
    const configured = settings.classes.find((c) => c.id === item.class_id);
    return configured ? [{ classId: item.class_id, indicator: configured.type, score: item.score }] : [];
  });
  // The drivers' items as the journey names them now (a correction reads both sides so, and takes back what it added).
  const drivers = driverItemsOf(journey.classes).filter((id) => settings.classes.some((c) => c.id === id));
  const rated = drivers.length > 0 && drivers.every((id) => items.some((item) => item.classId === id));
  return {
    indicator: journey.indicator,
    score: transaction.rating.score,
    items,
    answeredAt,
    sentOn,
    source,
    ...(rated ? { drivers } : {}),
  };
}

export const countedOf = (transaction: { journey_id: number; store_id: number; employee_id: number }): Counted => ({
  journeyId: transaction.journey_id,
  storeId: transaction.store_id,
  employeeId: transaction.employee_id,
});
