import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { rankByInterval } from '../../shared/results/ranking.js';
import { rowOf } from '../../shared/results/report.js';
import { ResultsQuery } from '../../shared/results/schema.js';
import { resultsService } from '../../shared/results/service.js';
import { answerTally } from '../../shared/results/tally.js';
import type { JourneyConfig, Settings } from '../../shared/tenants/config-schema.js';
import { INDICATORS, type Indicator } from '../../shared/settings/scales.js';
import { memoryCounters } from '../support/memory.js';

/**
 * Fair rankings and changes beyond chance (issue 49 §2): the rule over rows, and the report's rows over counters in
 * memory, checked against the interval maths written here again from the formulas, apart from the implementation.
 */

/** Counts of a group: answers, and for NPS its promoters and detractors, else the sum of its scores. */
type Counts = Record<'n' | 'p' | 'd' | 'sum', number>;
const countsOf = (indicator: Indicator, scores: number[]): Counts => ({
  n: scores.length,
  p: indicator === 'nps' ? scores.filter((s) => s >= 9).length : 0,
  d: indicator === 'nps' ? scores.filter((s) => s <= 6).length : 0,
  sum: scores.reduce((a, b) => a + b, 0),
});

const rankable = (key: string, counts: Counts, indicator: Indicator = 'nps') => {
  const row = rowOf({ key, label: key, counts, indicator, minSample: 1 });
  return { key, answers: row.responses, interval: row.interval };
};

/** An NPS group's counts: n answers, p promoters, d detractors. */
const npsCounts = fc
  .tuple(fc.integer({ min: 1, max: 60 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }))
  .map(([n, a, b]) => {
    const p = Math.floor(a * (n + 1)) % (n + 1);
    const d = Math.floor(b * (n - p + 1)) % (n - p + 1);
    return { n, p, d, sum: 0 };
  });

describe('rankByInterval', () => {
  it('never ranks a store with 2 answers, nor puts it first or last', () => {
    const rows = [
      { key: 'two', answers: 2, interval: { low: 40, high: 100 } },
      { key: 'many', answers: 80, interval: { low: 20, high: 45 } },
      { key: 'some', answers: 9, interval: { low: -10, high: 40 } },
    ];
    expect(rankByInterval(rows, 5).map((r) => [r.key, r.rank, r.worst_rank])).toEqual([
      ['many', 1, 2],
      ['some', 2, 1],
      ['two', null, null],
    ]);
  });

  it('gives no unranked row a rank, and ranks the others 1 to n by the lower end (worst by the upper end)', () => {
    fc.assert(
      fc.property(fc.array(npsCounts, { maxLength: 30 }), fc.integer({ min: 1, max: 20 }), (groups, min) => {
        const ranked = rankByInterval(
          groups.map((counts, i) => rankable(String(i), counts)),
          min,
        );
        for (const row of ranked) {
          if (row.answers < min) expect([row.rank, row.worst_rank]).toEqual([null, null]);
          else expect(row.rank).not.toBeNull();
        }
        const byRank = ranked.filter((row) => row.rank !== null);
        expect(byRank.map((row) => row.rank)).toEqual(byRank.map((_, i) => i + 1));
        byRank.slice(1).forEach((row, i) => expect(row.interval!.low).toBeLessThanOrEqual(byRank[i]!.interval!.low));
        const byWorst = [...byRank].sort((a, b) => a.worst_rank! - b.worst_rank!);
        expect(byWorst.map((row) => row.worst_rank)).toEqual(byWorst.map((_, i) => i + 1));
        byWorst.slice(1).forEach((row, i) => expect(row.interval!.high).toBeGreaterThanOrEqual(byWorst[i]!.interval!.high));
        // The unranked come after every ranked row.
        expect(ranked.slice(byRank.length).every((row) => row.rank === null)).toBe(true);
      }),
    );
  });

  it('never ranks a store with more answers and the same share below the same store with fewer', () => {
    const indicator = fc.constantFrom<Indicator>('nps', 'csat', 'ces', 'binary');
    const group = indicator.chain((ind) =>
      fc
        .array(fc.integer(INDICATORS[ind]), { minLength: 1, maxLength: 30 })
        .map((scores) => ({ indicator: ind, counts: countsOf(ind, scores) })),
    );
    fc.assert(
      fc.property(
        group,
        fc.integer({ min: 2, max: 20 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 10 }),
        fc.integer({ min: 1, max: 10 }),
        ({ indicator: ind, counts }, k, others, min) => {
          const { min: low, max: high } = INDICATORS[ind];
          // Other stores: the same number of answers, a mean anywhere on the scale.
          const rest = others.map((share, i) =>
            rankable(
              `o${i}`,
              { n: counts.n, p: Math.round(share * counts.n), d: 0, sum: Math.round((low + share * (high - low)) * counts.n) },
              ind,
            ),
          );
          const fewer = rankable('fewer', counts, ind);
          const more = rankable('more', { n: counts.n * k, p: counts.p * k, d: counts.d * k, sum: counts.sum * k }, ind);
          const ranked = rankByInterval([fewer, ...rest, more], min);
          const rankOf = (key: string) => ranked.findIndex((row) => row.key === key);
          expect(rankOf('more')).toBeLessThan(rankOf('fewer'));
        },
      ),
    );
  });
});

// The reference: Wilson's score interval and Newcombe's hybrid score interval, from the formulas.
const Z = 1.959964;
function wilsonRef(x: number, n: number): [number, number] {
  const p = x / n;
  const centre = p + (Z * Z) / (2 * n);
  const spread = Z * Math.sqrt((p * (1 - p) + (Z * Z) / (4 * n)) / n);
  const denominator = 1 + (Z * Z) / n;
  return [Math.max(0, (centre - spread) / denominator), Math.min(1, (centre + spread) / denominator)];
}

/** The NPS of one period with its interval: Newcombe's method for p - d of one sample, with their correlation. */
function npsRef({ n, p, d }: Counts): [number, number, number] {
  const [pp, dd] = [p / n, d / n];
  const [pl, pu] = wilsonRef(p, n);
  const [dl, du] = wilsonRef(d, n);
  const mid = (x: number) => (x + (Z * Z) / 2) / (n + Z * Z);
  const [pm, dm] = [mid(p), mid(d)];
  const r = -Math.sqrt(Math.min(1, (pm * dm) / ((1 - pm) * (1 - dm))));
  const lowGap = Math.sqrt(Math.max(0, (pp - pl) ** 2 + (du - dd) ** 2 - 2 * r * (pp - pl) * (du - dd)));
  const highGap = Math.sqrt(Math.max(0, (pu - pp) ** 2 + (dd - dl) ** 2 - 2 * r * (pu - pp) * (dd - dl)));
  const nps = 100 * (pp - dd);
  return [nps, Math.max(-100, nps - 100 * lowGap), Math.min(100, nps + 100 * highGap)];
}

/** A mean with Wilson's interval over its share of the scale. */
function meanRef({ n, sum }: Counts, indicator: Indicator): [number, number, number] {
  const { min, max } = INDICATORS[indicator];
  const [l, u] = wilsonRef(((sum / n - min) / (max - min)) * n, n);
  return [sum / n, min + l * (max - min), min + u * (max - min)];
}

/** Newcombe's method 10 for the difference of two independent estimates: significant when it excludes zero. */
function significantRef(indicator: Indicator, now: Counts, before: Counts): { significant: boolean; margin: number } {
  const [a, al, au] = indicator === 'nps' ? npsRef(now) : meanRef(now, indicator);
  const [b, bl, bu] = indicator === 'nps' ? npsRef(before) : meanRef(before, indicator);
  const low = a - b - Math.sqrt((a - al) ** 2 + (bu - b) ** 2);
  const high = a - b + Math.sqrt((au - a) ** 2 + (b - bl) ** 2);
  return { significant: low > 0 || high < 0, margin: Math.min(Math.abs(low), Math.abs(high)) };
}

const JOURNEY = { id: 1, slug: 'loja', indicator: 'nps', classes: [], channels: ['email'] } as unknown as JourneyConfig;
/** May 2026 against the 31 days before it (31 March to 30 April). */
const MAY = { from: '2026-05-01', to: '2026-05-31' };

/** A report by store over answers in memory: each store's scores in the period before and in May. */
async function storeReport(indicator: Indicator, stores: { before: number[]; now: number[] }[], minAnswersToRank?: number) {
  const counters = memoryCounters();
  const journey = { ...JOURNEY, indicator };
  stores.forEach(({ before, now }, i) => {
    const answer = (score: number, day: string) =>
      counters.add(7, {
        journeyId: 1,
        deltas: answerTally(
          { journeyId: 1, storeId: i + 1, employeeId: 1 },
          { indicator, score, items: [], answeredAt: `${day}T12:00:00Z`, sentOn: null },
        ),
      });
    before.forEach((score, j) => answer(score, j % 2 ? '2026-03-31' : '2026-04-20'));
    now.forEach((score, j) => answer(score, j % 2 ? '2026-05-01' : '2026-05-31'));
    // Outside both periods: counted by neither.
    answer(INDICATORS[indicator].min, '2026-03-30');
    answer(INDICATORS[indicator].min, '2026-06-01');
  });
  const settings = { journeys: [journey], classes: [], groups: [], delivery: {}, minAnswersToRank } as unknown as Settings;
  const service = resultsService({
    counters,
    settings: async () => settings,
    stores: { getMany: async (_t, ids) => ids.map((id) => ({ id, trade_name: `Loja ${id}` }) as never) },
    employees: { getMany: async () => [] },
  });
  const user = Promise.resolve({ name: 'gerente', scope: 'all' as const, tokenHash: 'h', created_at: '2026-01-01T00:00:00Z' });
  return service.report(7, v.parse(ResultsQuery, { journey: 'loja', group_by: 'store', ...MAY }), user);
}

describe('a report by store, ranked, with its change against the period before', () => {
  it('lists a store with 2 answers apart, unranked, and compares each store with the 31 days before', async () => {
    const report = await storeReport('nps', [
      { before: [10, 10, 9, 9, 9, 8], now: [10, 10, 10, 9, 9, 9, 10, 10] },
      { before: [], now: [10, 10] },
      { before: [5, 6, 9, 10, 3], now: [0, 2, 6, 7, 9, 10] },
    ]);
    expect(report.compared_with).toEqual({ from: '2026-03-31', to: '2026-04-30' });
    expect(report.min_answers_to_rank).toBe(5);
    expect(report.data.map((row) => [row.key, row.responses, row.rank])).toEqual([
      ['1', 8, 1],
      ['3', 6, 2],
      ['2', 2, null],
    ]);
    expect(report.data[0]!.interval!.low).toBeGreaterThan(report.data[1]!.interval!.low);
    expect(report.data[2]!.change).toBeNull();
    expect(report.data[0]!.change).toMatchObject({ value: 16.7, significant: false });
  });

  it('reads the period before from the counters with the same plan: a year by store in 8 counter reads, not 4', async () => {
    const counters = memoryCounters();
    let reads = 0;
    const settings = { journeys: [JOURNEY], classes: [], groups: [], delivery: {} } as unknown as Settings;
    const service = resultsService({
      counters: { read: (query) => ((reads += 1), counters.read(query)) },
      settings: async () => settings,
      stores: { getMany: async () => [] },
      employees: { getMany: async () => [] },
    });
    const user = Promise.resolve({ name: 'gerente', scope: 'all' as const, tokenHash: 'h', created_at: '2026-01-01T00:00:00Z' });
    const year = { journey: 'loja', from: '2025-05-15', to: '2026-05-14' };
    await service.report(7, v.parse(ResultsQuery, { ...year, group_by: 'journey' }), user);
    const journeyReads = reads;
    reads = 0;
    await service.report(7, v.parse(ResultsQuery, { ...year, group_by: 'store' }), user);
    // Two partial months and two years of month counters, for the year and for the year before it.
    expect([journeyReads, reads]).toEqual([4, 8]);
  });

  it('ranks by the tenant’s minAnswersToRank', async () => {
    const report = await storeReport('csat', [{ before: [], now: [5, 5] }], 2);
    expect(report.data.map((row) => [row.rank, row.worst_rank, row.interval])).toEqual([[1, 1, { low: 2.37, high: 5 }]]);
  });

  it('calls a change significant exactly when the reference interval of the difference excludes zero', async () => {
    const scenario = fc.constantFrom<Indicator>('nps', 'csat', 'ces', 'binary').chain((indicator) => {
      const scores = fc.array(fc.integer(INDICATORS[indicator]), { minLength: 1, maxLength: 60 });
      // A period's answers: from a scale-wide spread, or leaning to one end, so that both outcomes come up.
      const period = fc.oneof(
        scores,
        scores.map((s) => s.map((x) => Math.max(x, INDICATORS[indicator].max - 1))),
      );
      return fc.tuple(fc.constant(indicator), period, period);
    });
    let significant = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ([indicator, before, now]) => {
        const reference = significantRef(indicator, countsOf(indicator, now), countsOf(indicator, before));
        // A bound within rounding error of zero could go either way in either implementation.
        fc.pre(reference.margin > 1e-9);
        const [row] = (await storeReport(indicator, [{ before, now }])).data;
        expect(row!.change!.significant).toBe(reference.significant);
        if (reference.significant) significant += 1;
      }),
      { numRuns: 200 },
    );
    // The generated data tried both answers.
    expect(significant).toBeGreaterThan(10);
  });
});
