import { INDICATORS, type Indicator } from '../tenants/config-schema.js';

/** One row of a report: what a group's counters say. */
export interface ResultRow {
  key: string;
  label: string;
  responses: number;
  sent: number;
  response_rate: number | null;
  mean: number | null;
  scale: { min: number; max: number };
  nps: Nps | null;
  low_sample: boolean;
}

export interface Nps {
  score: number;
  promoters: number;
  passives: number;
  detractors: number;
  ci95: [number, number];
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * NPS = (promoters - detractors) / answers x 100. Its 95% interval treats each answer as +1, 0 or -1: the variance
 * of that mean is (p + d) - (p - d)^2 over the answers, and the interval is the score +- 1.96 standard errors,
 * within -100..100.
 */
export function nps(n: number, promoters: number, detractors: number): Nps | null {
  if (n <= 0) return null;
  const p = promoters / n;
  const d = detractors / n;
  const margin = 1.96 * Math.sqrt(Math.max(0, p + d - (p - d) ** 2) / n) * 100;
  const score = (p - d) * 100;
  return {
    score: round(score, 1),
    promoters,
    passives: n - promoters - detractors,
    detractors,
    ci95: [round(Math.max(-100, score - margin), 1), round(Math.min(100, score + margin), 1)],
  };
}

/** A row from summed counts; `prefix` picks a class's counts (`c<id>`), none the main question's. */
export function rowOf(
  key: string,
  label: string,
  counts: Record<string, number>,
  indicator: Indicator,
  minSample: number,
  prefix = '',
): ResultRow {
  const n = counts[`${prefix}n`] ?? 0;
  const sent = counts.sent ?? 0;
  return {
    key,
    label,
    responses: n,
    sent,
    // Answers to surveys sent, over surveys sent (ratings registered with the sale count as responses, not here).
    response_rate: sent > 0 ? round((counts.r ?? 0) / sent, 3) : null,
    mean: n > 0 ? round((counts[`${prefix}sum`] ?? 0) / n, 2) : null,
    scale: { ...INDICATORS[indicator] },
    nps: indicator === 'nps' ? nps(n, counts[`${prefix}p`] ?? 0, counts[`${prefix}d`] ?? 0) : null,
    low_sample: n < minSample,
  };
}

/** Adds counts into a running total. */
export function addInto(total: Record<string, number>, counts: Record<string, number>): Record<string, number> {
  for (const [name, value] of Object.entries(counts)) total[name] = (total[name] ?? 0) + value;
  return total;
}
