import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { DEMO_TENANTS_FILE } from '../../infra/local/demo.js';
import { ENV } from '../../shared/config.js';
import type { Employee } from '../../shared/employees/schema.js';
import { GROUPING_NAMES } from '../../shared/results/groupings.js';
import { nps } from '../../shared/results/report.js';
import { ResultsQuery } from '../../shared/results/schema.js';
import { resultsService } from '../../shared/results/service.js';
import { answerTally, sentTally, type Counted } from '../../shared/results/tally.js';
import type { Store } from '../../shared/stores/schema.js';
import type { UserRecord } from '../../shared/access/ports.js';
import type { Settings } from '../../shared/tenants/config-schema.js';
import { parseTenantFile } from '../../shared/tenants/tenant-file.js';
import * as v from 'valibot';
import { memoryCounters } from '../support/memory.js';

/**
 * The results' maths with no table: the NPS and its interval, and every grouping of a report over result counters
 * kept in memory, fed by the same tally the answer path writes.
 */

describe('the NPS interval', () => {
  it('is Wilson-based: wide for one answer, narrowing as answers come, never a point', () => {
    // All promoters: the plain interval read "100 a 100" at every n.
    expect([1, 2, 10, 1000].map((n) => nps(n, n, 0)!.ci95)).toEqual([
      [-58.7, 100],
      [-31.5, 100],
      [44.5, 100],
      [99.2, 100],
    ]);
    // Half promoters, a fifth detractors (one answer: a promoter).
    expect([1, 2, 10, 1000].map((n) => nps(n, Math.ceil(n / 2), Math.floor(n / 5))!.ci95)).toEqual([
      [-58.7, 100],
      [-48.5, 90.5],
      [-21.8, 67.1],
      [25.1, 34.7],
    ]);
    // One passive, one detractor.
    expect(nps(1, 0, 0)!.ci95).toEqual([-79.3, 79.3]);
    expect(nps(1, 0, 1)!.ci95).toEqual([-100, 58.7]);
    expect(nps(0, 0, 0)).toBeNull();
  });

  it('holds the score, within -100..100, and for many answers is the plain score +- 1.96 standard errors', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (n, x, y) => {
          const promoters = Math.floor(n * x);
          const detractors = Math.floor((n - promoters) * y);
          const { score, ci95 } = nps(n, promoters, detractors)!;
          expect(ci95[0]).toBeGreaterThanOrEqual(-100);
          expect(ci95[1]).toBeLessThanOrEqual(100);
          expect(ci95[0]).toBeLessThanOrEqual(score);
          expect(ci95[1]).toBeGreaterThanOrEqual(score);
          // Never a point while answers are few (at 0.1, an interval of ten thousand passives may round to one).
          if (n <= 1000) expect(ci95[1] - ci95[0]).toBeGreaterThan(0);
          if (n >= 10_000) {
            const [p, d] = [promoters / n, detractors / n];
            const margin = 1.96 * Math.sqrt((p + d - (p - d) ** 2) / n) * 100;
            expect(ci95[0]).toBeCloseTo(Math.max(-100, (p - d) * 100 - margin), 0);
            expect(ci95[1]).toBeCloseTo(Math.min(100, (p - d) * 100 + margin), 0);
          }
        },
      ),
    );
  });
});

// The demo file is the local stack's: its chatbot and webhooks are http on this machine.
vi.stubEnv(ENV.localDeployment, '1');
const demo = parseTenantFile(readFileSync(DEMO_TENANTS_FILE, 'utf8'), {}).tenants[0]!;
const SETTINGS = { ...demo, minAnswersToRank: 2, journeys: demo.journeys.map((j) => ({ ...j, minSample: 2 })) } as unknown as Settings;
const TENANT = 7;
const STORES = [
  { id: 1, trade_name: 'Loja Centro' },
  { id: 2, trade_name: 'Loja Norte' },
] as Store[];
const EMPLOYEES = [
  { id: 1, name: 'Ana', groups: [1] },
  { id: 2, name: 'Caio', groups: [2] },
] as Employee[];

/** Journey loja: five answers over March to May 2026, and one survey sent but never answered. */
function counted() {
  const counters = memoryCounters();
  const answer = (storeId: number, employeeId: number, score: number, day: string, classes: { classId: number; score: number }[] = []) => {
    const where: Counted = { journeyId: 1, storeId, employeeId };
    counters.add(TENANT, { journeyId: 1, deltas: sentTally(where, new Date(`${day}T09:00:00Z`)) });
    const items = classes.map((c) => ({ ...c, indicator: 'csat' as const }));
    counters.add(TENANT, {
      journeyId: 1,
      deltas: answerTally(where, { indicator: 'nps', score, items, answeredAt: `${day}T12:00:00Z`, sentOn: day }),
    });
  };
  answer(1, 1, 10, '2026-03-31', [{ classId: 1, score: 5 }]);
  answer(1, 2, 8, '2026-04-01');
  answer(2, 1, 3, '2026-04-15');
  answer(2, 2, 9, '2026-05-04');
  answer(1, 1, 9, '2026-05-10');
  counters.add(TENANT, { journeyId: 1, deltas: sentTally({ journeyId: 1, storeId: 2, employeeId: 2 }, new Date('2026-05-11T09:00:00Z')) });
  return counters;
}

const service = resultsService({
  counters: counted(),
  settings: async () => SETTINGS,
  stores: { getMany: async (_tenantId, ids) => STORES.filter((s) => ids.includes(s.id)) },
  employees: { getMany: async (_tenantId, ids) => EMPLOYEES.filter((e) => ids.includes(e.id)) },
});
const user = (scope: UserRecord['scope'] = 'all'): Promise<UserRecord> =>
  Promise.resolve({ name: 'gerente', scope, tokenHash: 'h', created_at: '2026-01-01T00:00:00Z' });

const report = (query: Record<string, string>, scope?: UserRecord['scope']) =>
  service.report(TENANT, v.parse(ResultsQuery, { journey: 'loja', from: '2026-03-31', to: '2026-05-31', ...query }), user(scope));
const figures = async (query: Record<string, string>, scope?: UserRecord['scope']) =>
  (await report(query, scope)).data.map((row) => [row.key, row.label, row.responses, row.sent, row.mean, row.nps?.score ?? null]);

describe('a report over counters in memory', () => {
  it('groups by store and by employee, best first, with their names', async () => {
    expect(await figures({ group_by: 'store' })).toEqual([
      ['1', 'Loja Centro', 3, 3, 9, 66.7],
      ['2', 'Loja Norte', 2, 3, 6, 0],
    ]);
    expect(await figures({ group_by: 'employee' })).toEqual([
      ['2', 'Caio', 2, 3, 8.5, 50],
      ['1', 'Ana', 3, 3, 7.33, 33.3],
    ]);
    const [store1] = (await report({ group_by: 'store' })).data;
    expect(store1).toMatchObject({ response_rate: 1, nps: { promoters: 2, passives: 1, detractors: 0, ci95: [-28.2, 93.9] } });
  });

  it('groups by day, week and month in time order, reading whole months by their month counters', async () => {
    expect(await figures({ group_by: 'day', to: '2026-04-02' })).toEqual([
      ['2026-03-31', '2026-03-31', 1, 1, 10, 100],
      ['2026-04-01', '2026-04-01', 1, 1, 8, 0],
    ]);
    expect(await figures({ group_by: 'week', from: '2026-03-30', to: '2026-04-19' })).toEqual([
      ['2026-03-30', '2026-03-30', 2, 2, 9, 50],
      ['2026-04-13', '2026-04-13', 1, 1, 3, -100],
    ]);
    expect(await figures({ group_by: 'month' })).toEqual([
      ['2026-03-01', '2026-03-01', 1, 1, 10, 100],
      ['2026-04-01', '2026-04-01', 2, 2, 5.5, -50],
      ['2026-05-01', '2026-05-01', 2, 3, 9, 100],
    ]);
  });

  it('groups the journey as a whole and by its classes', async () => {
    expect(await figures({ group_by: 'journey' })).toEqual([['1', 'Loja', 5, 6, 7.8, 40]]);
    expect(await figures({ group_by: 'class' })).toEqual([
      ['1', 'Atendimento', 1, 6, 5, null],
      ['2', 'Limpeza', 0, 6, null, null],
    ]);
  });

  it("gives a token limited to stores its own stores' figures and its groups' employees only", async () => {
    const scope = { stores: [2], groups: [1] };
    expect(await figures({ group_by: 'store' }, scope)).toEqual([['2', 'Loja Norte', 2, 3, 6, 0]]);
    expect(await figures({ group_by: 'journey' }, scope)).toEqual([['1', 'Loja', 2, 3, 6, 0]]);
    expect(await figures({ group_by: 'employee' }, scope)).toEqual([['1', 'Ana', 1, 1, 3, -100]]);
    await expect(report({ group_by: 'store', store: '1' }, scope)).rejects.toThrow('No such store.');
    await expect(report({ group_by: 'day', employee: '2' }, scope)).rejects.toThrow('No such employee.');
  });

  it('lists every grouping of the table in the query schema, in the contract order', () => {
    expect(GROUPING_NAMES).toEqual(['store', 'region', 'employee', 'journey', 'class', 'day', 'week', 'month']);
    expect(() => v.parse(ResultsQuery, { journey: 'loja', from: '2026-01-01', to: '2026-01-01', group_by: 'year' })).toThrow(
      'must be one of store, region, employee, journey, class, day, week, month',
    );
  });
});
