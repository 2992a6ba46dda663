import { analyticsExport, localDayOf, RETENTION_SWEEP_DAYS } from '../shared/analytics/export.js';
import type { AnalyticsFiles, DayAnswers } from '../shared/analytics/ports.js';
import { dayAnswers } from '../shared/adapters/analytics-answers.js';
import { dirtyDays } from '../shared/adapters/analytics-dirty.js';
import { analyticsFiles } from '../shared/adapters/analytics-files.js';
import { dayCases, daySurveys } from '../shared/adapters/analytics-records.js';
import { pseudonymKey } from '../shared/adapters/analytics-key.js';
import { db } from '../shared/adapters/dynamodb.js';
import { readSettings } from '../shared/adapters/settings-repository.js';
import { EVALUATION_SHARDS, transactionRepository } from '../shared/adapters/transaction-repository.js';
import { timeZoneOf } from '../shared/locale.js';
import { consumerTimeoutOf } from '../shared/queues.js';
import type { Fixture } from '../infra/examples.js';
import { inProcess } from '../test/support/api.js';
import { registerSale } from '../test/support/sales.js';
import { seedAnswers } from './answers-cost.js';
import { PRICES } from './cost.js';
import { meter } from './metering.js';

/** The scale target (docs/performance.md): 10 million transactions a day, 30% of them answered. */
const TRANSACTIONS_A_DAY = 10_000_000;
const ANSWER_RATE = 0.3;
/** The analytics consumer's memory (the functions' default, infra/constructs/service-function.ts). */
const FUNCTION_GB = 0.5;
/** A Query page is at most 1 MB of items. */
const PAGE_BYTES = 1024 * 1024;
/** S3 PUT and DELETE requests: $0.005 per 1,000 PUTs (DELETE is free). */
const PUT_PER_MILLION = 5;
const SIZE = Number(process.env.BENCH_ANALYTICS_ANSWERS ?? 2000);

/**
 * A tenant's day of the analytics export (shared/analytics/export.ts) measured on BENCH_ANALYTICS_ANSWERS answers
 * (default 2,000, each with a comment) against DynamoDB Local and the local S3 server, then set at the scale target
 * beside its floor: Query pages, read units, S3 PUTs and Lambda GB-s. The floor reads each answer's item once (its
 * bytes, in pages of 1 MB, at half a unit per 4 KB: an eventually consistent Query), writes one object a dataset, and
 * spends no time; the measured plan reads EVALUATION_SHARDS partitions of the month, each at least one page.
 */
export async function analyticsCost(f: Fixture, size = SIZE): Promise<string> {
  const api = inProcess('public', 300);
  const seedId = await registerSale(api, f.key, { store_id: f.storeId, score: 9, comment: 'O atendimento foi bom, mas a fila demorou.' });
  const record = (await transactionRepository.findById(f.tenantId, seedId))!;
  const started = Date.now();
  await seedAnswers(f, record, started, 1, size);
  const zone = timeZoneOf(await readSettings(f.tenantId));
  const days = [...new Set([localDayOf(started - size * 1000, zone), localDayOf(started, zone)])];

  let rows = 0;
  let puts = 0;
  let bytes = 0;
  const answers: DayAnswers = {
    async *between(tenantId, from, to) {
      for await (const page of dayAnswers.between(tenantId, from, to)) {
        rows += page.length;
        yield page;
      }
    },
  };
  const files: AnalyticsFiles = {
    ...analyticsFiles,
    async put(key, body) {
      puts++;
      bytes += body.byteLength;
      await analyticsFiles.put(key, body);
    },
  };
  const exporter = analyticsExport({
    answers,
    surveys: daySurveys,
    cases: dayCases,
    dirty: dirtyDays,
    files,
    settings: readSettings,
    pseudonymKey,
  });
  const metered = meter(db().client);
  metered.reset();
  const heapBefore = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  await metered.run(async () => {
    for (const day of days) await exporter.exportDay(f.tenantId, day, true);
  });
  const seconds = (performance.now() - t0) / 1000;
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
  metered.stop();
  const queries = metered.calls.filter((call) => call.command === 'Query');
  const readUnits = queries.reduce((sum, call) => sum + call.read, 0);
  // An answer's item as the Query charges it: the read units are half a unit per 4 KB of items in a page.
  const itemBytes = ((readUnits * 2) / rows) * 4096;

  const daily = TRANSACTIONS_A_DAY * ANSWER_RATE;
  const scale = daily / rows;
  const floorBytes = daily * itemBytes;
  const row = (what: string, measured: number, atScale: number, floor: number, usd: (n: number) => number) =>
    `| ${what} | ${measured.toLocaleString('en-US', { maximumFractionDigits: 1 })} | ${Math.round(atScale).toLocaleString('en-US')} | ${Math.round(floor).toLocaleString('en-US')} | $${usd(atScale).toFixed(4)} |`;
  return [
    `### Analytics export: a tenant's day at ${TRANSACTIONS_A_DAY.toLocaleString('en-US')} transactions (${daily.toLocaleString('en-US')} answers)`,
    '',
    `Measured on ${rows.toLocaleString('en-US')} answers (${days.length} day${days.length > 1 ? 's' : ''} of the tenant's zone), ~${Math.round(itemBytes)} bytes an item as charged, a Parquet file of ${Math.round(bytes / rows)} bytes an answer; scaled by answers. The plan Queries ${EVALUATION_SHARDS} partitions of the month (gsi2), in pages of 1 MB.`,
    '',
    '| what | measured | at the scale target | floor | USD a day at scale |',
    '|---|---:|---:|---:|---:|',
    // Each of the month's partitions ends on a page of its own; the rest are full pages (1 MB).
    row('Query pages', queries.length, EVALUATION_SHARDS + Math.ceil(floorBytes / PAGE_BYTES), Math.ceil(floorBytes / PAGE_BYTES), () => 0),
    row('read units', readUnits, readUnits * scale, floorBytes / 4096 / 2, (n) => (n / 1e6) * PRICES.readUnit),
    row('S3 PUTs (DeleteObject: the retention sweep, free)', puts, puts / days.length, 1, (n) => (n / 1e6) * PUT_PER_MILLION),
    row('Lambda GB-s', seconds * FUNCTION_GB, seconds * FUNCTION_GB * scale, 0, (n) => (n / 1e6) * PRICES.lambdaGbSecond),
    '',
    `The read units are at their floor (every answer of the day read once; the Query charges whole items). The day is held in memory until its one PutObject: ${heapMb.toFixed(1)} MB of heap for ${rows.toLocaleString('en-US')} answers, ${((heapMb * scale) / 1024).toFixed(1)} GB at the scale target, and ${Math.round((seconds / rows) * daily)} s at this machine's pace: past the function's ${FUNCTION_GB * 1024} MB and ${consumerTimeoutOf('analytics')} s. At that size a day must be written in parts (a Parquet row group per shard, a multipart upload), not one invocation. The ${RETENTION_SWEEP_DAYS} DeleteObject calls of the retention sweep a day are free. The seeded answers are copies of one, so the Parquet file is smaller than a real day's.`,
  ].join('\n');
}
