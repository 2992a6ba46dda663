import * as v from 'valibot';
import { wholeNumber } from '../schema.js';
import { INDICATORS, type Indicator } from '../settings/scales.js';
import type { ClassConfig, JourneyConfig } from '../settings/journeys.js';
import { driverItemsOf } from './driver-cells.js';
import { driversOf, firstToImprove, type DriverFigure, type DriverItemInput } from './drivers.js';

/** One item's row of GET /public/results?group_by=driver. */
export const DriverRowBody = v.object({
  /** The class's id. */
  key: v.string(),
  label: v.string(),
  /** The item's Shapley share of R² (the rows' importances add up to `r2`): how much of the score's variation moves with it. */
  importance: v.number(),
  /** `importance` over `r2`: its share of what the items explain, 0 to 1. */
  share: v.number(),
  /** The item's mean over the answers read. */
  performance: v.number(),
  /** The item's scale. */
  scale: v.object({ min: v.number(), max: v.number() }),
  /** `performance` as a share of the scale (0: its lowest, 1: its highest), so items on different scales compare. */
  performance_share: v.number(),
  /** The standardised coefficient of the item in the regression of the main score on every item. */
  beta: v.number(),
  /** That coefficient's t statistic (n - k - 1 degrees of freedom). */
  t: v.number(),
  /** Whether the coefficient is beyond chance: the two-sided t test at 5% (the item moves the score beyond what the others explain). */
  beyond_chance: v.boolean(),
});

export const DriversReportBody = v.object({
  journey: v.object({ id: wholeNumber, slug: v.string(), indicator: v.picklist(Object.keys(INDICATORS) as Indicator[]) }),
  from: v.string(),
  to: v.string(),
  group_by: v.literal('driver'),
  /** How importance is measured: Shapley (LMG) shares of the R² of a least-squares regression of the main score on the items. */
  method: v.literal('shapley_r2'),
  /** The answers read: those of the period and scope that rated every item. */
  answers: wholeNumber,
  /** The fewest answers drivers are given for: max(30, 10 per item). */
  min_answers: wholeNumber,
  /** The model's R² (null when no drivers are given). */
  r2: v.nullable(v.number()),
  /** Why no drivers are given (then `data` is empty): too few answers, an item or the score that never varies, items that repeat each other. */
  reason: v.nullable(v.picklist(['too_few_answers', 'no_variation', 'collinear'])),
  /** The item to improve first (its key): of the items beyond chance that raise the score, the most important among those at or below the items' average performance (else the weakest of them); null when none is beyond chance. */
  first_to_improve: v.nullable(v.string()),
  /** The items, most important first. */
  data: v.array(DriverRowBody),
});
export type DriversReportBody = v.InferOutput<typeof DriversReportBody>;

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** A journey's driver items with their configured scales (an item no longer configured is left out). */
export function driverItems(journey: JourneyConfig, classes: readonly ClassConfig[]): (DriverItemInput & { label: string })[] {
  return driverItemsOf(journey.classes).flatMap((id) => {
    const configured = classes.find((c) => c.id === id);
    return configured ? [{ classId: id, indicator: configured.type, label: configured.label }] : [];
  });
}

const rowOf = (figure: DriverFigure, item: DriverItemInput & { label: string }) => ({
  key: String(figure.classId),
  label: item.label,
  importance: round(figure.importance, 4),
  share: round(figure.share, 3),
  performance: round(figure.performance, 2),
  scale: { ...INDICATORS[item.indicator] },
  performance_share: round(figure.performanceShare, 3),
  beta: round(figure.beta, 3),
  t: round(figure.t, 2),
  beyond_chance: figure.beyondChance,
});

/** The drivers' body from a scope's summed counts. */
export function driversReport(
  head: Pick<DriversReportBody, 'journey' | 'from' | 'to'>,
  counts: Record<string, number>,
  items: (DriverItemInput & { label: string })[],
): DriversReportBody {
  const drivers = driversOf(counts, items);
  const base = { ...head, group_by: 'driver' as const, method: 'shapley_r2' as const, answers: drivers.n, min_answers: drivers.required };
  if (!drivers.ok) return { ...base, r2: null, reason: drivers.reason, first_to_improve: null, data: [] };
  const first = firstToImprove(drivers.items);
  return {
    ...base,
    r2: round(drivers.r2, 3),
    reason: null,
    first_to_improve: first ? String(first.classId) : null,
    data: drivers.items.map((figure) =>
      rowOf(
        figure,
        items.find((item) => item.classId === figure.classId)!,
      ),
    ),
  };
}
