import { beforeAll, describe, expect, inject, it } from 'vitest';
import { coldStart } from '../../bench/cold-start.js';
import { costPerOperation } from '../../bench/cost.js';
import { httpThroughput } from '../../bench/http.js';
import { warmLatency } from '../../bench/latency.js';
import { consumerThroughput } from '../../bench/throughput.js';
import { growth } from '../../bench/growth.js';
import { retentionCost } from '../../bench/retention-cost.js';
import { deadlineCost } from '../../bench/deadline-cost.js';
import { answersCost, answersGrowth } from '../../bench/answers-cost.js';
import { casesCost } from '../../bench/cases-cost.js';
import { exportCost } from '../../bench/export-cost.js';
import { resultsCost } from '../../bench/results-cost.js';
import { ANALYSIS_TARGETS, themesCost } from '../../bench/themes-cost.js';
import { routes, succeeded } from '../../infra/routes.js';
import { fixture, type Fixture } from '../reliability/fixtures.js';

/**
 * `npm run bench` at its smallest (one call, one round, one second), so that the benchmark scripts cannot rot.
 * Nothing here is timed against a target: the tables only have to come out whole, with numbers in every row.
 */
let f: Fixture;
beforeAll(async () => {
  f = await fixture();
});

/** The rows of a markdown table under its header row, as cells. */
function rows(table: string): string[][] {
  const lines = table.split('\n').filter((line) => line.startsWith('|'));
  return lines.slice(2).map((line) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim()),
  );
}
const number = (cell: string | undefined) => Number(cell?.replace(/^\$/, ''));

describe('benchmarks, one iteration each', () => {
  it('retention: a sale with and without it, and the sweep per transaction it strips', async () => {
    const table = rows(await retentionCost({ sales: 3 }));
    expect(table.map((row) => row[0])).toEqual([
      'a sale, without retention',
      'a sale, with retention',
      'the sweep, per transaction stripped',
    ]);
    // The expiry entry is one more write unit; the sweep spends at least the one update per transaction.
    expect(number(table[1]![3]) - number(table[0]![3])).toBe(1);
    expect(number(table[2]![3])).toBeGreaterThanOrEqual(1);
  });

  it("comment analysis cost: Comprehend's sentiment alone, or no call once the tenant turns it off, each under its target", async () => {
    const table = rows(await themesCost());
    expect(table).toHaveLength(3);
    for (const row of table) {
      // Before issue 59: DetectDominantLanguage, BatchDetectSentiment, BatchDetectKeyPhrases, about $906.
      expect(row[5]).toMatch(/^BatchDetectSentiment \(3 units\)$/);
      expect(row[11]).toBe('none');
      expect(number(row[9])).toBeLessThanOrEqual(ANALYSIS_TARGETS.withSentiment);
      expect(number(row[12])).toBeLessThan(ANALYSIS_TARGETS.withoutSentiment);
    }
  });

  it('deadline cost: parking, releasing and checking a case deadline', async () => {
    const table = rows(await deadlineCost({ cases: 3 }));
    expect(table.map((row) => row[0])).toEqual([
      'parking the timer (when the case opens)',
      'the release, per timer (a minute of 3)',
      'the check, an open case: overdue and escalated',
      'the check delivered again',
      'the check, a case resolved before its deadline',
    ]);
    // The timer is one write; every check reads the case at least; only the first escalates (the most writes).
    expect(number(table[0]![3])).toBe(1);
    for (const row of table.slice(2)) expect(number(row[2])).toBeGreaterThan(0);
    expect(number(table[2]![3])).toBeGreaterThan(number(table[3]![3]));
  });

  it('answers cost: the index entries of an answer and the read units of its pages', async () => {
    const [entries, pages] = (await answersCost(await fixture()))
      .split('\n\n')
      .filter((part) => part.startsWith('|'))
      .map(rows);
    expect(entries!.map((row) => row[0])).toEqual(['gsi10', 'gsi11']);
    // An entry holds what a listing shows, less than the whole item.
    for (const row of entries!) expect(number(row[1])).toBeLessThan(number(row[2]));
    expect(pages!.map((row) => row[0])).toEqual([
      "a store's first page (20 answers)",
      "every store's first page (20 answers, 8 shards)",
      'detractors with a comment, first page',
    ]);
    expect(number(pages![0]![1])).toBe(20);
    expect(number(pages![1]![2])).toBe(8);
  }, 60_000);

  it("results cost: a year's reports, drivers reading no more than the journey's report, and the bytes they add", async () => {
    // Two stores without cases, counted on the last 40 days (two months' counters and their days): the
    // smallest year of counters that still has stores, regions, months and days to read.
    Object.assign(process.env, { BENCH_RESULT_STORES: '2', BENCH_RESULT_CASES: '0', BENCH_RESULT_DAYS: '40' });
    const table = await resultsCost(await fixture());
    const reports = rows(table);
    expect(reports.map((row) => row[0])).toEqual(['store', 'region', 'store, region=2', 'journey', 'month', 'employee', 'driver']);
    for (const row of reports) expect(row[1]).toBe('200');
    // Drivers read the journey's counters: its read units are their floor.
    expect(number(reports[6]![4])).toBeLessThanOrEqual(number(reports[3]![4]));
    expect(table).toMatch(/the journey's month counter here weighs \d+ bytes/);
  }, 240_000);

  it("answers growth: a store's answers grown to each size, and its first pages measured at each", async () => {
    const table = rows(await answersGrowth(await fixture(), [10, 30]));
    // The fixture's own two answers are there too (its sale's, and the detractor's of its case): 12 at the first size.
    expect(table.map((row) => [row[0], row[1], row[2]])).toEqual([
      ["a store's first page", '10', '12'],
      ["every store's first page", '10', '12'],
      ["a store's first page", '30', '20'],
      ["every store's first page", '30', '20'],
    ]);
    for (const row of table) expect(number(row[4]), row[0]).toBeGreaterThan(0);
  }, 60_000);

  it("export: one store's answers exported to one file at each size, in a process of its own, its peak and time measured", async () => {
    const table = rows(await exportCost(await fixture(), [10, 30]));
    // The fixture's own two answers and the export's seed sale are there too.
    expect(table.map((row) => [row[0], row[1]])).toEqual([
      ['10', '12'],
      ['30', '32'],
    ]);
    for (const row of table) for (const cell of [row[3], row[6]]) expect(number(cell), row[0]).toBeGreaterThan(0);
  }, 120_000);

  it("cases cost: opening a case and its alert in write units, a redelivery writing only its deadline timer again, a store's open cases at each size", async () => {
    const [opening, growth] = (await casesCost(await fixture(), [30, 60]))
      .split('\n\n')
      .filter((part) => part.startsWith('|'))
      .map(rows);
    expect(opening!.map((row) => row[0])).toEqual(['opening a case (first delivery of its message)', 'a redelivered message']);
    expect(number(opening![0]![4])).toBeGreaterThan(0);
    // The opener puts the case's deadline timer on every delivery (the same item, so a crash between opening and
    // scheduling never loses it): a redelivery writes that one item again, and nothing else.
    expect(opening![1]![3]).toBe('PutItem 1');
    // The store's page reads the same units however many cases the tenant holds.
    expect(growth!.map((row) => [row[0], row[1], row[2]])).toEqual([
      ['30', '20', '1'],
      ['60', '20', '1'],
    ]);
    expect(growth![0]![3]).toBe(growth![1]![3]);
  }, 60_000);

  it('cost per operation: every route, answered 2xx, with its round trips beside a floor', async () => {
    const table = rows(await costPerOperation(f));
    expect(table.map((row) => row[0]).sort()).toEqual(routes.map((r) => r.operationId).sort());
    for (const [operation, status, roundTrips, floor] of table) {
      expect(
        succeeded(
          routes.find((r) => r.operationId === operation)!,
          number(status),
        ),
        operation,
      ).toBe(true);
      expect(Number.isFinite(number(roundTrips)) && Number.isFinite(number(floor)), operation).toBe(true);
    }
  });

  it('warm latency: every route beside the calls it made, replayed', async () => {
    const table = rows(await warmLatency(await fixture(), { calls: 1 }));
    expect(table.map((row) => row[0]).sort()).toEqual(routes.map((r) => r.operationId).sort());
    for (const row of table)
      expect(
        row
          .slice(1, 3)
          .concat(row.slice(4))
          .every((cell) => Number.isFinite(number(cell))),
        row[0],
      ).toBe(true);
    // The authorizer's answer is one made for another request, as API Gateway's cache gives it: the handler reads a
    // copy of the configuration version (a revoked key is refused at once, shared/http/handler.ts), then the store.
    expect(table.find((row) => row[0] === 'getStore')?.[3]).toBe('GetItem, then GetItem');
  }, 120_000);

  it('consumer throughput: the consumer and its floor both move transactions', async () => {
    const table = rows(await consumerThroughput(f.tenantId, { transactions: 10, rounds: 1 }));
    expect(table).toHaveLength(2);
    for (const row of table) expect(number(row[1])).toBeGreaterThan(0);
  }, 60_000);

  it('through HTTP: both routes and their floors answer only 2xx', async () => {
    const table = rows(await httpThroughput(inject('publicUrl'), f, { seconds: 1, connections: 2, amount: 20 }));
    expect(table).toHaveLength(4);
    for (const row of table) {
      expect(number(row[1]), row[0]).toBeGreaterThan(0);
      expect(number(row[5]), row[0]).toBe(0);
    }
  }, 60_000);

  it('growth: a tenant is grown through the consumer and each read is measured at each size', async () => {
    const table = rows(await growth(await fixture(), [10, 30], { calls: 1 }));
    const measured = table.filter((row) => !row[0]!.startsWith('*'));
    expect(measured).toHaveLength(14);
    for (const row of measured) {
      expect(number(row[3]), row[0]).toBeGreaterThan(0);
      expect(number(row[4]), row[0]).toBeGreaterThan(0);
    }
    // The tenant really grew: the unfiltered first page at 30 customers holds more than at 10.
    const firstPage = measured.filter((row) => row[0] === 'customers, first page, no filter').map((row) => number(row[2]));
    expect(firstPage[1]).toBeGreaterThan(firstPage[0]!);
  }, 120_000);

  it('cold start: a function is bundled as deployed and imported beside the floor and its own floor', async () => {
    const table = rows(await coldStart({ runs: 1, only: ['getStore', 'postV2Transaction'] }));
    expect(table.map((row) => row[0])).toEqual(['floor: DynamoDB document client only', 'getStore', 'postV2Transaction']);
    for (const row of table)
      expect(
        row.slice(1, 6).every((cell) => number(cell) > 0),
        row[0],
      ).toBe(true);
    // The function that sends to SQS, and reads its request-id secret, is measured against a floor that makes those clients too.
    expect(table.map((row) => row[6])).toEqual(['', 'the same', '+ SQSClient, SecretsManagerClient']);
    expect(number(table[2]![7]!)).toBeGreaterThan(0);
  }, 60_000);
});
