/**
 * The counts of key drivers (docs/drivers.md), kept in the result counters beside the others (`tally.ts`), so that
 * they have the scopes, periods, shards and corrections of every other count: for the answers that rated every item
 * the journey's drivers read (its first MAX_DRIVER_ITEMS classes), their number `qn`, the sums of the main score `qy`
 * and of its square `qyy`, of each item `q<id>`, of each item times the main score `q<id>y`, and of each pair of items
 * (a square when they are one) `q<a>x<b>`, `a <= b`: the sufficient statistics of a least-squares regression of the main
 * score on the items, from which `drivers.ts` computes everything.
 */

/**
 * At most this many items take part: the cells grow with the square of the items (8 items: 55 cells, about 500 bytes
 * in each counter item), and an answer's counters must stay small enough to cost one write unit each. A journey
 * asking more classes has its first eight as drivers.
 */
export const MAX_DRIVER_ITEMS = 8;

/** The items a journey's drivers read: its first MAX_DRIVER_ITEMS classes. */
export const driverItemsOf = (classes: readonly number[]): number[] => classes.slice(0, MAX_DRIVER_ITEMS);

export const DRIVER_COUNT = 'qn';
export const MAIN_SUM = 'qy';
export const MAIN_SQUARES = 'qyy';
export const itemSum = (id: number) => `q${id}`;
export const itemByMain = (id: number) => `q${id}y`;
/** The cell of the products of two items, the same whichever is named first. */
export const itemByItem = (a: number, b: number) => `q${Math.min(a, b)}x${Math.max(a, b)}`;

/** What one answer adds (sign 1) or takes back (-1) to the drivers' cells: `items` are the driver items' scores, all of them. */
export function driverCounts(main: number, items: { classId: number; score: number }[], sign: 1 | -1): Record<string, number> {
  const counts: Record<string, number> = { [DRIVER_COUNT]: sign, [MAIN_SUM]: sign * main, [MAIN_SQUARES]: sign * main * main };
  items.forEach((item, i) => {
    counts[itemSum(item.classId)] = sign * item.score;
    counts[itemByMain(item.classId)] = sign * item.score * main;
    for (const other of items.slice(i)) counts[itemByItem(item.classId, other.classId)] = sign * item.score * other.score;
  });
  return counts;
}
