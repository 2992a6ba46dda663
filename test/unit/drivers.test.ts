import { describe, expect, it } from 'vitest';
import {
  driversOf,
  firstToImprove,
  minimumDriverSample,
  shapleyShares,
  tCritical,
  type DriverFigure,
} from '../../shared/results/drivers.js';
import { answerTally, countedOf, scoredRating, type CounterDelta } from '../../shared/results/tally.js';
import type { Settings } from '../../shared/tenants/config-schema.js';

/**
 * Key drivers from the counters' sums (issue 60 §1): answers generated where one item drives the main score and
 * another is noise go through the tally as the answer path writes them, and the drivers read the summed counter.
 */

const settings: Pick<Settings, 'journeys' | 'classes'> = {
  journeys: [
    {
      id: 1,
      slug: 'loja',
      indicator: 'nps',
      classes: [7, 9],
      channels: ['email'],
      resurveyWindowDays: null,
      surveyValidityDays: 7,
      handOff: [],
    },
  ],
  classes: [
    { id: 7, label: 'Atendimento', type: 'csat' },
    { id: 9, label: 'Estacionamento', type: 'csat' },
  ] as Settings['classes'],
};
const ITEMS = [
  { classId: 7, indicator: 'csat' as const },
  { classId: 9, indicator: 'csat' as const },
];

/** A seeded generator (mulberry32), so the answers are the same on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` answers: the service item (7) drives the score, parking (9) is noise. */
function answers(count: number, seed = 60) {
  const next = random(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return Array.from({ length: count }, () => {
    const service = 1 + Math.floor(next() * 5);
    const parking = 1 + Math.floor(next() * 5);
    const score = Math.min(10, Math.max(0, Math.round(2 * service - 1 + 1.5 * normal())));
    return { score, service, parking };
  });
}

const transaction = (a: { score: number; service: number; parking?: number }) => ({
  journey_id: 1,
  store_id: 3,
  employee_id: 4,
  rating: { score: a.score },
  rating_items: [{ class_id: 7, score: a.service }, ...(a.parking === undefined ? [] : [{ class_id: 9, score: a.parking }])],
});

/** The journey's counter for the day, summed as a report sums it. */
function counted(deltas: CounterDelta[]) {
  const total: Record<string, number> = {};
  for (const delta of deltas.filter((d) => d.dimension === 'all'))
    for (const [name, value] of Object.entries(delta.add)) total[name] = (total[name] ?? 0) + value;
  return total;
}
const tally = (list: ReturnType<typeof answers>) =>
  list.flatMap((a) =>
    answerTally(countedOf(transaction(a)), scoredRating(transaction(a), settings, { answeredAt: '2026-11-20T10:00:00Z', sentOn: null })!),
  );

/** The R² of the least-squares regression of the score on the items with an intercept, straight from the answers. */
function directR2(list: ReturnType<typeof answers>): number {
  const rows = list.map((a) => [1, a.service, a.parking]);
  const y = list.map((a) => a.score);
  // Normal equations X'X b = X'y, solved by elimination.
  const m = [0, 1, 2].map((i) => [
    ...[0, 1, 2].map((j) => rows.reduce((s, r) => s + r[i]! * r[j]!, 0)),
    rows.reduce((s, r, k) => s + r[i]! * y[k]!, 0),
  ]);
  for (let c = 0; c < 3; c++)
    for (let r = 0; r < 3; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let j = 0; j < 4; j++) m[r]![j]! -= f * m[c]![j]!;
    }
  const b = [0, 1, 2].map((i) => m[i]![3]! / m[i]![i]!);
  const mean = y.reduce((s, v) => s + v, 0) / y.length;
  const sse = rows.reduce((s, r, k) => s + (y[k]! - (b[0]! + b[1]! * r[1]! + b[2]! * r[2]!)) ** 2, 0);
  const sst = y.reduce((s, v) => s + (v - mean) ** 2, 0);
  return 1 - sse / sst;
}

describe('key drivers', () => {
  it('puts the item that drives the score first and beyond chance, the noise item not, with the regression R²', () => {
    const list = answers(400);
    const drivers = driversOf(counted(tally(list)), ITEMS);
    expect(drivers.ok).toBe(true);
    if (!drivers.ok) return;
    expect(drivers.n).toBe(400);
    expect(drivers.items.map((i) => i.classId)).toEqual([7, 9]);
    expect(drivers.items[0]!.beyondChance).toBe(true);
    expect(drivers.items[1]!.beyondChance).toBe(false);
    expect(Math.abs(drivers.r2 - directR2(list))).toBeLessThan(0.05);
    // The shares of R² add up to it; performance is the item's mean.
    expect(drivers.items[0]!.importance + drivers.items[1]!.importance).toBeCloseTo(drivers.r2, 9);
    expect(drivers.items[0]!.performance).toBeCloseTo(list.reduce((s, a) => s + a.service, 0) / 400, 9);
    expect(firstToImprove(drivers.items)?.classId).toBe(7);
  });

  it('answers no drivers under the minimum sample, and says why', () => {
    expect(minimumDriverSample(2)).toBe(30);
    expect(minimumDriverSample(5)).toBe(50);
    const drivers = driversOf(counted(tally(answers(29))), ITEMS);
    expect(drivers).toEqual({ ok: false, n: 29, required: 30, reason: 'too_few_answers' });
  });

  it('says so when an item does not vary', () => {
    const drivers = driversOf(counted(tally(answers(60).map((a) => ({ ...a, parking: 3 })))), ITEMS);
    expect(drivers).toMatchObject({ ok: false, reason: 'no_variation' });
  });

  it('counts only answers that rated every item, and a correction takes its answer back', () => {
    const list = answers(40);
    const partial = tally([{ score: 9, service: 5 }] as ReturnType<typeof answers>);
    expect(counted(partial).qn).toBeUndefined();
    const first = list[0]!;
    const corrected = { ...first, score: (first.score + 5) % 11, parking: (first.parking % 5) + 1 };
    const at = '2026-11-20T10:00:00Z';
    const correction = answerTally(
      countedOf(transaction(first)),
      scoredRating(transaction(corrected), settings, { answeredAt: at, sentOn: null })!,
      scoredRating(transaction(first), settings, { answeredAt: at, sentOn: null })!,
    );
    const after = counted([...tally(list), ...correction]);
    expect(after).toEqual(counted(tally([corrected, ...list.slice(1)])));
  });

  it('splits R² as Shapley does: for two items, each its own r² plus half the rest', () => {
    const correlations = [
      [1, 0.5],
      [0.5, 1],
    ];
    const withMain = [0.6, 0.3];
    const r2 = (0.36 + 0.09 - 2 * 0.5 * 0.6 * 0.3) / (1 - 0.25);
    const [a, b] = shapleyShares(correlations, withMain);
    expect(a).toBeCloseTo(0.36 + (r2 - 0.36 - 0.09) / 2, 12);
    expect(b).toBeCloseTo(0.09 + (r2 - 0.36 - 0.09) / 2, 12);
  });

  it("takes Student's t critical values within 0.001", () => {
    expect(tCritical(10)).toBeCloseTo(2.228, 2);
    expect(tCritical(20)).toBeCloseTo(2.086, 3);
    expect(tCritical(60)).toBeCloseTo(2.0, 3);
  });

  it('names the most important weak item beyond chance first, none when no item is beyond chance', () => {
    const item = (classId: number, importance: number, performanceShare: number, beyondChance = true): DriverFigure => ({
      classId,
      importance,
      share: 0,
      performance: 0,
      performanceShare,
      beta: 0.3,
      t: 3,
      beyondChance,
    });
    expect(firstToImprove([item(1, 0.3, 0.9), item(2, 0.2, 0.4), item(3, 0.1, 0.3)])?.classId).toBe(2);
    expect(firstToImprove([item(1, 0.3, 0.9), item(2, 0.2, 0.4, false)])?.classId).toBe(1);
    expect(firstToImprove([item(1, 0.3, 0.2, false)])).toBeUndefined();
  });
});
