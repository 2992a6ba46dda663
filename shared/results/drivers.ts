import { INDICATORS, type Indicator } from '../settings/scales.js';
import { DRIVER_COUNT, itemByItem, itemByMain, itemSum, MAIN_SQUARES, MAIN_SUM } from './driver-cells.js';

/**
 * Key drivers: which rated items (classes) move a journey's main score, from the sufficient statistics the counters
 * keep (`driver-cells.ts`), never from the answers. Pure: sums in, figures out.
 *
 * The model is the least-squares regression of the main score on the items, standardised: with R the items'
 * correlation matrix and r their correlations with the main score, the standardised coefficients are b = R⁻¹ r and
 * the model's R² = b·r. Every figure below follows from the correlations, which follow from the sums.
 *
 * **Importance** is each item's Shapley share of R² (the LMG decomposition: Lindeman, Merenda and Gold 1980; Grömping
 * 2006): the R² the item adds when it joins the model, averaged over every order in which the items can join. The
 * shares add up to R², no share is negative, and an item's does not depend on the order the items are listed in.
 * Johnson's relative weights (2000) were the other candidate: they approximate these shares through an orthogonal
 * rotation so as to avoid the 2^k regressions; with at most 8 items (`MAX_DRIVER_ITEMS`) the 256 small regressions
 * take well under a millisecond, so the exact decomposition costs nothing, and an approximation would only add an
 * error to explain. Items customers rate are strongly correlated (a good visit is good throughout): a plain
 * coefficient then splits the shared part arbitrarily between them, sometimes with a negative sign; the Shapley share
 * splits it evenly, which is what "how much the score moves with it" means to a reader.
 *
 * **Beyond chance** is the t test of the item's coefficient in the full model (the same as the test of its partial
 * correlation with the main score, and as the F test of adding it last), at 5%, two-sided, with n - k - 1 degrees of
 * freedom: t = b_j / sqrt((1 - R²) (R⁻¹)_jj / (n - k - 1)). It is computable from the sums alone (a permutation test
 * would need the answers), and it asks the question a manager's action needs: does this item move the score beyond
 * what the other items already explain? An item that only echoes another can hold a fair share of R² and still not
 * be beyond chance; that is the honest answer, since improving it alone is not shown to move anything.
 *
 * **Minimum sample**: n >= max(30, 10 k) answers that rated every item. Ten answers per item is the usual rule for
 * stable regression coefficients (Harrell, Regression Modeling Strategies, 10 to 20 per predictor); under 30 answers a
 * correlation's standard error (about 1/sqrt(n)) is near 0.2, as large as the differences between items customers
 * rate, so a ranking would be noise. Under it, no drivers are given, and the reason is.
 */

/** The smallest sample drivers are answered for, with `k` items: 30 answers, and 10 per item. */
export const minimumDriverSample = (k: number) => Math.max(30, 10 * k);

/** Why no drivers are given: too few answers, an item (or the score) that does not vary, or items that repeat each other. */
export type NoDriversReason = 'too_few_answers' | 'no_variation' | 'collinear';

export interface DriverItemInput {
  classId: number;
  indicator: Indicator;
}

export interface DriverFigure {
  classId: number;
  /** The item's Shapley share of R² (the shares add up to R²). */
  importance: number;
  /** Its importance over R²: its share of what the model explains. */
  share: number;
  /** The item's mean score over the answers read. */
  performance: number;
  /** The mean as a share of its scale (0: the scale's lowest, 1: its highest): items on different scales compare. */
  performanceShare: number;
  /** Its standardised coefficient in the full model, and that coefficient's t. */
  beta: number;
  t: number;
  /** |t| beyond the 5% two-sided critical value of Student's t with n - k - 1 degrees of freedom. */
  beyondChance: boolean;
}

export type Drivers =
  | { ok: true; n: number; required: number; r2: number; items: DriverFigure[] }
  | { ok: false; n: number; required: number; reason: NoDriversReason };

/** Pivots below this are a singular matrix: an item that is (nearly) a combination of the others. */
const SINGULAR = 1e-9;

/** The inverse of a small symmetric positive matrix (Gauss-Jordan, partial pivoting); undefined when singular. */
export function inverse(matrix: number[][]): number[][] | undefined {
  const k = matrix.length;
  const a = matrix.map((row, i) => [...row, ...row.map((_, j) => (i === j ? 1 : 0))]);
  for (let col = 0; col < k; col++) {
    let pivot = col;
    for (let row = col + 1; row < k; row++) if (Math.abs(a[row]![col]!) > Math.abs(a[pivot]![col]!)) pivot = row;
    if (Math.abs(a[pivot]![col]!) < SINGULAR) return undefined;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const lead = a[col]!;
    const divisor = lead[col]!;
    for (let j = 0; j < 2 * k; j++) lead[j]! /= divisor;
    for (let row = 0; row < k; row++) {
      if (row === col) continue;
      const factor = a[row]![col]!;
      if (factor !== 0) for (let j = 0; j < 2 * k; j++) a[row]![j]! -= factor * lead[j]!;
    }
  }
  return a.map((row) => row.slice(k));
}

const times = (matrix: number[][], vector: number[]) => matrix.map((row) => row.reduce((sum, value, j) => sum + value * vector[j]!, 0));
const dot = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

/** R² of the regression on the items of `mask` (bit j: item j), from the correlations. */
function r2Of(mask: number, correlations: number[][], withMain: number[]): number {
  const picked = correlations.map((_, j) => j).filter((j) => mask & (1 << j));
  if (picked.length === 0) return 0;
  const inv = inverse(picked.map((i) => picked.map((j) => correlations[i]![j]!)));
  const r = picked.map((j) => withMain[j]!);
  return inv ? dot(times(inv, r), r) : NaN;
}

const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));
const bitsOf = (mask: number) => mask.toString(2).replace(/0/g, '').length;

/** Each item's Shapley share of R² (LMG): the R² it adds joining each subset of the others, weighted by |S|! (k - |S| - 1)! / k!. */
export function shapleyShares(correlations: number[][], withMain: number[]): number[] {
  const k = withMain.length;
  const r2 = Array.from({ length: 1 << k }, (_, mask) => r2Of(mask, correlations, withMain));
  return withMain.map((_, j) => {
    let share = 0;
    for (let mask = 0; mask < 1 << k; mask++) {
      if (mask & (1 << j)) continue;
      const size = bitsOf(mask);
      share += ((factorial(size) * factorial(k - size - 1)) / factorial(k)) * (r2[mask | (1 << j)]! - r2[mask]!);
    }
    return share;
  });
}

/**
 * The 97.5% quantile of Student's t with `df` degrees of freedom: the Cornish-Fisher expansion around the normal's
 * (Abramowitz and Stegun 26.7.5), within 0.001 of the exact value from 5 degrees of freedom on.
 */
export function tCritical(df: number): number {
  const z = 1.959963985;
  const [z3, z5, z7, z9] = [z ** 3, z ** 5, z ** 7, z ** 9];
  const g1 = (z3 + z) / 4;
  const g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
  const g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
  const g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;
  return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4;
}

/** Means, and the covariance matrix of [main, ...items], from the sums of `n` answers. */
function moments(counts: Record<string, number>, ids: number[], n: number) {
  const sumOf = (i: number) => counts[i < 0 ? MAIN_SUM : itemSum(ids[i]!)] ?? 0;
  const productOf = (i: number, j: number) =>
    counts[i < 0 && j < 0 ? MAIN_SQUARES : i < 0 ? itemByMain(ids[j]!) : j < 0 ? itemByMain(ids[i]!) : itemByItem(ids[i]!, ids[j]!)] ?? 0;
  const all = [-1, ...ids.map((_, i) => i)];
  const covariance = all.map((i) => all.map((j) => (productOf(i, j) - (sumOf(i) * sumOf(j)) / n) / (n - 1)));
  return { means: all.map((i) => sumOf(i) / n), covariance };
}

/** The drivers of a journey's main score from summed counts (`driver-cells.ts`); `items` are its driver items, in order. */
export function driversOf(counts: Record<string, number>, items: DriverItemInput[]): Drivers {
  const n = counts[DRIVER_COUNT] ?? 0;
  const k = items.length;
  const required = minimumDriverSample(k);
  if (n < required || k === 0) return { ok: false, n, required, reason: 'too_few_answers' };
  const { means, covariance } = moments(
    counts,
    items.map((item) => item.classId),
    n,
  );
  const sd = covariance.map((row, i) => Math.sqrt(Math.max(0, row[i]!)));
  if (sd.some((s) => s < 1e-9)) return { ok: false, n, required, reason: 'no_variation' };
  const correlation = covariance.map((row, i) => row.map((value, j) => value / (sd[i]! * sd[j]!)));
  const among = correlation.slice(1).map((row) => row.slice(1));
  const withMain = correlation[0]!.slice(1);
  const inv = inverse(among);
  if (!inv) return { ok: false, n, required, reason: 'collinear' };
  const beta = times(inv, withMain);
  const r2 = Math.min(1, Math.max(0, dot(beta, withMain)));
  const df = n - k - 1;
  const critical = tCritical(df);
  const shares = shapleyShares(among, withMain);
  const figures = items.map((item, j): DriverFigure => {
    const t = beta[j]! / Math.sqrt(Math.max(1e-12, ((1 - r2) * inv[j]![j]!) / df));
    const { min, max } = INDICATORS[item.indicator];
    const performance = means[j + 1]!;
    const importance = Math.max(0, shares[j]!);
    return {
      classId: item.classId,
      importance,
      share: r2 > 0 ? importance / r2 : 0,
      performance,
      performanceShare: (performance - min) / (max - min),
      beta: beta[j]!,
      t,
      beyondChance: Math.abs(t) > critical,
    };
  });
  return { ok: true, n, required, r2, items: figures.sort((a, b) => b.importance - a.importance || a.classId - b.classId) };
}

/**
 * The item to improve first: of the items beyond chance whose rise raises the score (a positive coefficient), the most
 * important among those performing at or below the items' average (as a share of each one's scale: the quadrant
 * "important, weak"); when every such item performs above the average, the weakest of them. None when no item is
 * beyond chance: naming one would be a guess.
 */
export function firstToImprove(items: DriverFigure[]): DriverFigure | undefined {
  const candidates = items.filter((item) => item.beyondChance && item.beta > 0);
  if (candidates.length === 0) return undefined;
  const average = items.reduce((sum, item) => sum + item.performanceShare, 0) / items.length;
  const weak = candidates.filter((item) => item.performanceShare <= average);
  if (weak.length > 0) return weak.reduce((best, item) => (item.importance > best.importance ? item : best));
  return candidates.reduce((worst, item) => (item.performanceShare < worst.performanceShare ? item : worst));
}
