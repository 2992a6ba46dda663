import { INDICATORS, type Indicator } from '../settings/scales.js';
import { medianMinutes, medianRange, type WaitRange } from './case-tally.js';
import type { Change, Estimate, Interval } from './ranking.js';

export type { Estimate };
import { answersBySource, type ResultSource } from './sources.js';

/** One row of a report: what a group's counters say. */
export interface ResultRow {
  key: string;
  label: string;
  responses: number;
  /** The responses by source (`sources.ts`): a flood of QR or kiosk answers shows; a report narrowed to one source has only its own. */
  sources: Record<ResultSource, number>;
  sent: number;
  /** The journey's responses over its surveys sent (a class row too: the survey's, not the item's). */
  response_rate: number | null;
  /** The surveys sent that asked this row's question: `sent` for the survey's own, those that asked the item for a class row. */
  asked: number;
  /** The responses that answered this row's question over `asked` (a class row: the ones that rated the item). */
  asked_response_rate: number | null;
  mean: number | null;
  scale: { min: number; max: number };
  nps: Nps | null;
  low_sample: boolean;
  /** The 95% interval of the headline figure (the NPS, else the mean), from `estimateOf`; null without answers. */
  interval: Interval | null;
  /** Store and employee rows: their place by the interval's lower end (1: best), null when unranked (`ranking.ts`). */
  rank: number | null;
  /** Their place by the interval's upper end (1: worst), null when unranked. */
  worst_rank: number | null;
  /** Store and employee rows: against the period of the same length just before; null when either has no answers. */
  change: Change | null;
  /** The cases opened on the group's answers in the period (`case-tally.ts`), and what became of them. */
  cases: CaseFigures;
}

export interface CaseFigures {
  opened: number;
  /** Minutes from opening to first contact, the median interpolated within its bucket: an estimate (see `medianMinutes`). */
  first_contact_median_minutes: number | null;
  /** What the histogram knows of the median wait: over `low`, at most `high` minutes (`high` null: over a week). */
  first_contact_median_range: WaitRange | null;
  resolved: number;
  /** Resolved within the deadline, over the cases opened (open cases included: see `on_time_rate`). */
  resolved_within_deadline: number | null;
  /** Cases whose deadline is decided: resolved within it, or missed (overdue, resolved late, closed unresolved). */
  deadline_decided: number;
  /** Of those, resolved within the deadline. */
  resolved_in_time: number;
  /** `resolved_in_time` over `deadline_decided`: a case still open within its deadline counts in neither. */
  on_time_rate: number | null;
  /** Recovery surveys answered. */
  recovery_answers: number;
  /** "Yes, solved" over the recovery surveys answered. */
  recovery_rate: number | null;
}

export interface Nps {
  score: number;
  promoters: number;
  passives: number;
  detractors: number;
  ci95: [number, number];
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

const Z95 = 1.959964;

/** Wilson's 95% score interval of a proportion of `n` answers: within 0..1, never of width 0 while n is small. */
export function wilson(share: number, n: number): { low: number; centre: number; high: number } {
  const z2 = Z95 ** 2;
  const centre = (share + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 / (1 + z2 / n)) * Math.sqrt((share * (1 - share)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), centre, high: Math.min(1, centre + half) };
}

/**
 * NPS = (promoters - detractors) / answers x 100, with its 95% interval.
 *
 * The interval is Wilson's score interval of each share, promoters p and detractors d, joined for their difference
 * by the method of variance estimates recovery (MOVER: Newcombe 1998, Zou and Donner 2008), with the correlation
 * of two shares of one sample, -sqrt(p d / ((1 - p)(1 - d))). Why not the plain interval, the score +- 1.96
 * standard errors: its standard error is 0 whenever every answer is alike, so one promoter read "100 a 100" (and
 * so did two, or ten), a certainty no sample gives. Wilson's interval is the one recommended for small samples: it
 * behaves at n = 1 (one promoter: -58.7 a 100, the Wilson interval of the mean answer counted +1, 0 or -1), always
 * holds the score, and for many answers comes to the plain interval (variance (p + d) - (p - d)^2 over the
 * answers), so large groups read as before. Within -100..100, rounded to 0.1.
 */
export function nps(n: number, promoters: number, detractors: number): Nps | null {
  const estimate = npsEstimate(n, promoters, detractors);
  if (!estimate) return null;
  return {
    score: round(estimate.value, 1),
    promoters,
    passives: n - promoters - detractors,
    detractors,
    ci95: [round(estimate.low, 1), round(estimate.high, 1)],
  };
}

/** The NPS of `n` answers and its interval (see `nps`), unrounded. */
export function npsEstimate(n: number, promoters: number, detractors: number): Estimate | null {
  if (n <= 0) return null;
  const p = promoters / n;
  const d = detractors / n;
  const promoted = wilson(p, n);
  const detracted = wilson(d, n);
  // The correlation of the two shares of one sample, taken at the shares Wilson's intervals centre on: those are
  // never 0 or 1, so a sample whose answers are all alike does not read as two shares that cannot move together.
  const [pc, dc] = [promoted.centre, detracted.centre];
  const rho = -Math.sqrt(Math.min(1, (pc * dc) / ((1 - pc) * (1 - dc))));
  const [a, b] = [p - promoted.low, detracted.high - d];
  const [c, e] = [promoted.high - p, d - detracted.low];
  const below = Math.sqrt(Math.max(0, a * a - 2 * rho * a * b + b * b));
  const above = Math.sqrt(Math.max(0, c * c - 2 * rho * c * e + e * e));
  const score = (p - d) * 100;
  return { value: score, low: Math.max(-100, score - below * 100), high: Math.min(100, score + above * 100) };
}

/**
 * A group's headline figure and its 95% interval from its summed counts: the NPS (Wilson and Newcombe, see
 * `npsEstimate`), or the mean score. The counters keep no sum of squares, so a mean's interval is Wilson's over the
 * mean as a share of the scale: an answer on a bounded scale varies at most as a yes/no answer with the same mean, so
 * this interval allows for the widest spread the scale permits: it errs on the side of calling fewer differences.
 */
export function estimateOf(counts: Record<string, number>, indicator: Indicator, prefix = ''): Estimate | null {
  const n = counts[`${prefix}n`] ?? 0;
  if (n <= 0) return null;
  if (indicator === 'nps') return npsEstimate(n, counts[`${prefix}p`] ?? 0, counts[`${prefix}d`] ?? 0);
  const { min, max } = INDICATORS[indicator];
  const mean = (counts[`${prefix}sum`] ?? 0) / n;
  const share = Math.min(1, Math.max(0, (mean - min) / (max - min)));
  const { low, high } = wilson(share, n);
  return { value: mean, low: min + low * (max - min), high: min + high * (max - min) };
}

/** The digits an indicator's figures are given to: the NPS to 0.1, a mean to 0.01. */
export const digitsOf = (indicator: Indicator) => (indicator === 'nps' ? 1 : 2);

const intervalOf = (estimate: Estimate | null, indicator: Indicator): Interval | null =>
  estimate && { low: round(estimate.low, digitsOf(indicator)), high: round(estimate.high, digitsOf(indicator)) };

/** A row from summed counts; `prefix` picks a class's counts (`c<id>`), none the main question's. */
export function rowOf({
  key,
  label,
  counts,
  indicator,
  minSample,
  prefix = '',
}: {
  key: string;
  label: string;
  counts: Record<string, number>;
  indicator: Indicator;
  minSample: number;
  prefix?: string;
}): ResultRow {
  const n = counts[`${prefix}n`] ?? 0;
  const sent = counts.sent ?? 0;
  // A class's surveys that asked it and its responses (counters kept before items had theirs: none asked).
  const asked = prefix ? (counts[`${prefix}a`] ?? 0) : sent;
  const answered = counts[`${prefix}r`] ?? 0;
  return {
    key,
    label,
    responses: n,
    sources: answersBySource(counts, prefix),
    sent,
    // Answers to surveys sent, over surveys sent (ratings registered with the sale count as responses, not here).
    response_rate: sent > 0 ? round((counts.r ?? 0) / sent, 3) : null,
    asked,
    asked_response_rate: asked > 0 ? round(answered / asked, 3) : null,
    mean: n > 0 ? round((counts[`${prefix}sum`] ?? 0) / n, 2) : null,
    scale: { ...INDICATORS[indicator] },
    nps: indicator === 'nps' ? nps(n, counts[`${prefix}p`] ?? 0, counts[`${prefix}d`] ?? 0) : null,
    low_sample: n < minSample,
    interval: intervalOf(estimateOf(counts, indicator, prefix), indicator),
    rank: null,
    worst_rank: null,
    change: null,
    cases: casesOf(counts),
  };
}

/** A group's case figures from its summed counters. */
export function casesOf(counts: Record<string, number>): CaseFigures {
  const [opened, answers, inTime] = [counts.co ?? 0, counts.ra ?? 0, counts.rw ?? 0];
  // Counters kept before missed deadlines were counted have resolved cases only: those are decided too.
  const decided = Math.max(inTime + (counts.md ?? 0), counts.rs ?? 0);
  return {
    opened,
    first_contact_median_minutes: medianMinutes(counts),
    first_contact_median_range: medianRange(counts),
    resolved: counts.rs ?? 0,
    resolved_within_deadline: opened > 0 ? round(inTime / opened, 3) : null,
    deadline_decided: decided,
    resolved_in_time: inTime,
    on_time_rate: decided > 0 ? round(inTime / decided, 3) : null,
    recovery_answers: answers,
    recovery_rate: answers > 0 ? round((counts.ry ?? 0) / answers, 3) : null,
  };
}

/** Adds counts into a running total. */
export function addInto(total: Record<string, number>, counts: Record<string, number>): Record<string, number> {
  for (const [name, value] of Object.entries(counts)) total[name] = (total[name] ?? 0) + value;
  return total;
}
