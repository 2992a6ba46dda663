import { LINK_SECONDS } from '../shared/analytics/chain.js';
import { DATASETS } from '../shared/analytics/datasets.js';
import { localDayOf } from '../shared/local-day.js';
import { analyticsExport, answerRow, pseudonymOf, RETENTION_SWEEP_DAYS, type WriteAt } from '../shared/analytics/export.js';
import { parquetFile, WRITE_LIMITS } from '../shared/analytics/parquet.js';
import type { AnalyticsFiles, DayAnswer, DayAnswers } from '../shared/analytics/ports.js';
import { dayAnswers } from '../shared/adapters/analytics-answers.js';
import { dirtyDays } from '../shared/adapters/analytics-dirty.js';
import { analyticsFiles } from '../shared/adapters/analytics-files.js';
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
/** S3 GET requests: $0.0004 per 1,000. */
const GET_PER_MILLION = 0.4;
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
  let heapPeak = 0;
  let sample: DayAnswer[] = [];
  const answers: DayAnswers = {
    async *between(tenantId, read) {
      for await (const page of dayAnswers.between(tenantId, read)) {
        rows += page.records.length;
        if (!sample.length) sample = page.records;
        heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
        yield page;
      }
    },
  };
  // The answers dataset alone (the surveys' reads are the same kind, per transaction: docs/analytics.md).
  const none = { async *between() {} };
  let uploads = 0;
  // Each upload is two requests beside its parts (CreateMultipartUpload, CompleteMultipartUpload), all PUT-priced.
  const files: AnalyticsFiles = {
    ...analyticsFiles,
    begin: (key) => ((uploads += 1), analyticsFiles.begin(key)),
    part: (key, upload) => ((puts += 1), (bytes += upload.bytes.byteLength), analyticsFiles.part(key, upload)),
  };
  // One row group for the whole measured day: its peak heap is what holding that many rows costs, per row.
  const exporter = analyticsExport(
    { answers, surveys: none, cases: none, dirty: dirtyDays, files, settings: readSettings, pseudonymKey },
    { limits: { ...WRITE_LIMITS, rowGroupRows: size * 2 } },
  );
  const metered = meter(db().client);
  metered.reset();
  const heapBefore = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  await metered.run(async () => {
    for (const day of days) await exporter.exportDay(f.tenantId, day, true);
  });
  const seconds = (performance.now() - t0) / 1000;
  const heapMb = (heapPeak - heapBefore) / 1024 / 1024;
  metered.stop();
  const queries = metered.calls.filter((call) => call.command === 'Query');
  const readUnits = queries.reduce((sum, call) => sum + call.read, 0);
  // An answer's item as the Query charges it: the read units are half a unit per 4 KB of items in a page.
  const itemBytes = ((readUnits * 2) / rows) * 4096;

  const daily = TRANSACTIONS_A_DAY * ANSWER_RATE;
  const scale = daily / rows;
  const perGroupMb = (heapMb / rows) * WRITE_LIMITS.rowGroupRows;
  const perGroupSeconds = (seconds / rows) * WRITE_LIMITS.rowGroupRows;
  const floorBytes = daily * itemBytes;
  const chain = await chainAtScale(
    sample,
    perGroupSeconds,
    Math.ceil(daily / WRITE_LIMITS.rowGroupRows),
    Math.ceil((daily * bytes) / rows / WRITE_LIMITS.partBytes),
  );
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
    row(
      'S3 PUT requests (parts and their upload; DeleteObject: the retention sweep, free)',
      puts + 2 * uploads,
      Math.ceil((daily * bytes) / rows / WRITE_LIMITS.partBytes) + (2 * uploads) / days.length,
      1,
      (n) => (n / 1e6) * PUT_PER_MILLION,
    ),
    row('Lambda GB-s', seconds * FUNCTION_GB, seconds * FUNCTION_GB * scale, 0, (n) => (n / 1e6) * PRICES.lambdaGbSecond),
    '',
    `**The chain of invocations** (shared/analytics/chain.ts) at the scale target, the answers' dataset: a link writes row groups until another would end past ${LINK_SECONDS} s, so ${chain.groupsPerLink} row groups of ${perGroupSeconds.toFixed(0)} s, **${chain.linkSeconds.toFixed(0)} s a link** (the consumer has ${consumerTimeoutOf('analytics')} s), and **${chain.links} links a day** (the surveys' dataset, ${(TRANSACTIONS_A_DAY / daily).toFixed(1)} times the rows, as many more at the same pace a row: ${Math.ceil((chain.links * TRANSACTIONS_A_DAY) / daily)}). What a link keeps: the chain's item, ${chain.itemBytes.toLocaleString('en-US')} bytes at the day's last link (the read's cursor and ${chain.parts} parts' ETags), and the half-written file in the bucket, ${(chain.fileBytes / 1024).toFixed(0)} KB of row-group metadata at most (${chain.groupMetaBytes.toLocaleString('en-US')} bytes a row group) plus the bytes not yet sent (under a part, ${WRITE_LIMITS.partBytes / 1024 / 1024} MB). Each link reads the item once (${chain.readUnits} read unit, consistent) and writes it twice (its lease and its end, ${chain.writeUnits} write unit${chain.writeUnits > 1 ? 's' : ''} each), puts and gets the file (two S3 requests) and sends one SQS message: **${(chain.links * chain.readUnits).toLocaleString('en-US')} read and ${(chain.links * 2 * chain.writeUnits).toLocaleString('en-US')} write units, ${chain.links * 2} S3 and ${chain.links * 3} SQS requests a day, $${chain.usd.toFixed(4)}** beside the reads above (floor: $0, a day that fits one invocation).`,
    '',
    `The read units are at their floor (every answer of the day read once; the Query charges whole items). A day is streamed into one object (an S3 multipart upload, shown whole when completed), a row group of ${WRITE_LIMITS.rowGroupRows.toLocaleString('en-US')} rows at a time and parts of ${WRITE_LIMITS.partBytes / 1024 / 1024} MB: holding the ${rows.toLocaleString('en-US')} measured answers took ${heapMb.toFixed(1)} MB of heap, so a row group holds about ${perGroupMb.toFixed(0)} MB, plus up to ${(2 * WRITE_LIMITS.partBytes) / 1024 / 1024} MB of a part's bytes: ${(perGroupMb + (2 * WRITE_LIMITS.partBytes) / 1024 / 1024).toFixed(0)} MB whatever the day's size, within the function's ${FUNCTION_GB * 1024} MB (before: the whole day, ${((heapMb * scale) / 1024).toFixed(1)} GB). A row group takes ${perGroupSeconds.toFixed(0)} s at this machine's pace; the day's ${Math.ceil(daily / WRITE_LIMITS.rowGroupRows)} row groups take ${Math.round((seconds / rows) * daily)} s in all, the chain's ${chain.links} links above. The ${RETENTION_SWEEP_DAYS} DeleteObject calls of the retention sweep a day are free. The seeded answers are copies of one, so the Parquet file is smaller than a real day's.`,
  ].join('\n');
}

/**
 * A day's chain at the scale target, from the measured pace: the links, and what each keeps and costs. The item's size is
 * that of its JSON with the day's parts (the last link's, the largest); the file's metadata a row group is measured on a
 * file of the sampled answers (offsets and statistics: about the same whatever the rows).
 */
async function chainAtScale(sample: DayAnswer[], groupSeconds: number, groups: number, parts: number) {
  // A link stops after k row groups when k + 1 would end past LINK_SECONDS (at least one).
  const groupsPerLink = Math.max(1, Math.ceil(LINK_SECONDS / groupSeconds) - 1);
  const links = Math.ceil(groups / groupsPerLink);
  const at: WriteAt = {
    day: 0,
    dataset: 2,
    upload: { id: 'x'.repeat(64), parts: Array.from({ length: parts }, (_, i) => ({ n: i + 1, etag: `"${'0'.repeat(32)}"` })) },
    read: {
      cursor: {
        partition: 15,
        key: { pk: 'T#7#TX#123456789', sk: 'TX', gsi2pk: 'T#7#EVAL#2026-11#15', gsi2sk: '2026-11-26T23:59:59.999Z#123456789' },
      },
      skip: 1234,
    },
  };
  const job = { tenantId: 7, days: ['2026-11-26'], then: { run: { day: '2026-11-26', marks: [] } } };
  // Its attributes beside these two: keys, seq, lease and owner, times, ttl: about 300 bytes.
  const itemBytes = JSON.stringify(at).length + JSON.stringify(job).length + 300;
  const context = {
    indicatorOf: () => 'nps' as const,
    regionOf: () => 1,
    comments: true,
    customerKey: (id: number) => pseudonymOf('k', id),
  };
  const saves: number[] = [];
  const file = parquetFile(DATASETS.answers, { part: async () => {}, limits: { rowGroupRows: sample.length, partBytes: 1 } });
  for (let group = 0; group < 2; group++) {
    for (const answer of sample) await file.add(answerRow(answer, context));
    saves.push(file.save().length);
  }
  const groupMetaBytes = saves[1]! - saves[0]!;
  const readUnits = Math.ceil(itemBytes / 4096);
  const writeUnits = Math.ceil(itemBytes / 1024);
  const usd =
    (links * readUnits * PRICES.readUnit + links * 2 * writeUnits * PRICES.writeUnit + links * 3 * PRICES.sqsRequest) / 1e6 +
    (links * (PUT_PER_MILLION + GET_PER_MILLION)) / 1e6;
  return {
    groupsPerLink,
    linkSeconds: groupsPerLink * groupSeconds,
    links,
    itemBytes,
    parts,
    groupMetaBytes,
    fileBytes: groups * groupMetaBytes,
    readUnits,
    writeUnits,
    usd,
  };
}
