// First: the logger and the modules below read its environment as they load.
import './quiet.js';
import { analyticsCost } from './analytics-cost.js';
import { exportCost } from './export-cost.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { startLocalStack } from '../infra/local/stack.js';
import { loadSecrets } from '../shared/adapters/secrets.js';
import { SECRET_NAMES } from '../shared/config.js';
import { coldStart } from './cold-start.js';
import { costPerOperation } from './cost.js';
import { resultsCost } from './results-cost.js';
import { answersCost, answersGrowth } from './answers-cost.js';
import { casesCost } from './cases-cost.js';
import { retentionCost } from './retention-cost.js';
import { deadlineCost } from './deadline-cost.js';
import { themesCost } from './themes-cost.js';
import { themesQuality } from './themes-bench.js';
import { digestCost } from './digest-cost.js';
import { chatCost } from './chat-cost.js';
import { missedGates, performanceBlock, v2CostBlock } from './summary.js';
import { endToEnd } from './end-to-end.js';
import { httpThroughput } from './http.js';
import { warmLatency } from './latency.js';
import { consumerThroughput } from './throughput.js';
import { growth } from './growth.js';
import { lighthouse, LIGHTHOUSE_PAGES } from './lighthouse.js';
import { scaleReport, scaleSimulation } from './scale.js';

/**
 * `npm run bench`: prints each table, writes them all to bench/results/latest.md and their headline ratios to
 * docs/performance.md.
 * `npm run bench -- cold-start latency` runs only the sections named (cost, latency, throughput, http, growth, answers, lighthouse,
 * cold-start, scale, themes) and writes nothing, but for the v2 transaction's table, which every run of `cost` writes
 * to docs/performance.md. Every run exits non-zero when it misses a gating target (bench/summary.ts: the v2
 * transaction's total and its logs).
 */
const SECTIONS = [
  'cost',
  'latency',
  'throughput',
  'http',
  'growth',
  'answers',
  'export',
  'lighthouse',
  'cold-start',
  'scale',
  'themes',
] as const;
/** Sections that need no local stack. */
const STANDALONE: readonly string[] = ['cold-start', 'scale', 'themes'];
const chosen = process.argv.slice(2);
const wanted = (section: (typeof SECTIONS)[number]) => chosen.length === 0 || chosen.includes(section);
const unknown = chosen.filter((name) => !(SECTIONS as readonly string[]).includes(name));
if (unknown.length) {
  console.error(`Unknown section ${unknown.join(', ')}; the sections are ${SECTIONS.join(', ')}.`);
  process.exit(2);
}

const tables: string[] = [];
/** The v2 transaction's table, which docs/performance.md shows in full. */
let v2Table: string | undefined;
if (SECTIONS.some((section) => !STANDALONE.includes(section) && wanted(section))) {
  // The gateway caches the authorizer's answer for 300 s, as API Gateway does by default.
  const stack = await startLocalStack({
    port: 0,
    chatbotPort: 0,
    dynamoDbPort: 0,
    sqsPort: 0,
    sesPort: 0,
    outboxPort: 0,
    s3Port: 0,
    tableName: 'bench',
    authorizerCacheTtlSeconds: 300,
    seed: true,
    visibilityTimeoutSeconds: 30,
  });
  // The benchmarks sign survey links as the deployment does: they read its secrets as the operator would.
  await loadSecrets(...SECRET_NAMES);
  try {
    // The fixture module builds its data through the API, as the tests do.
    const { fixture } = await import('../test/reliability/fixtures.js');
    if (wanted('cost'))
      tables.push(
        await costPerOperation(await fixture()),
        (v2Table = await endToEnd(await fixture())),
        await resultsCost(await fixture()),
        await answersCost(await fixture()),
        await casesCost(await fixture()),
        await retentionCost(),
        await deadlineCost(),
        await themesCost(),
        await digestCost(),
        await chatCost(stack.outboxUrl),
      );
    if (wanted('latency'))
      tables.push(
        await warmLatency(await fixture(), {
          calls: Number(process.env.BENCH_CALLS ?? 1000),
          setConsumerEnabled: stack.setConsumerEnabled,
        }),
      );
    if (wanted('throughput'))
      tables.push(
        await consumerThroughput((await fixture()).tenantId, { transactions: Number(process.env.BENCH_TRANSACTIONS ?? 500), rounds: 3 }),
      );
    if (wanted('http'))
      tables.push(
        await httpThroughput(stack.publicUrl, await fixture(), { seconds: Number(process.env.BENCH_HTTP_SECONDS ?? 10), connections: 10 }),
      );
    if (wanted('growth')) tables.push(await growth(await fixture()));
    if (wanted('answers')) tables.push(await answersGrowth(await fixture()));
    if (wanted('export')) tables.push(await exportCost(await fixture()), await analyticsCost(await fixture()));
    if (wanted('lighthouse'))
      tables.push(
        await lighthouse(stack.publicUrl, {
          runs: Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3),
          pages: [...LIGHTHOUSE_PAGES, { path: `/s/${(await fixture()).surveyToken}?score=9`, label: '/s/{token}', floor: 100 }],
        }),
      );
  } finally {
    await stack.stop();
  }
}
if (wanted('themes')) tables.push(await themesQuality());
if (wanted('cold-start'))
  tables.push(
    // BENCH_COLD_START=getSurveyPage,postSurveyPage measures only those functions (and their floors).
    await coldStart({ runs: Number(process.env.BENCH_COLD_START_RUNS ?? 21), only: process.env.BENCH_COLD_START?.split(',') }),
  );
// Last: the simulation takes over this process's table client (a counting table answers it from then on), which needs
// a table name, a Region and credentials to sign with, though nothing is sent.
if (wanted('scale')) {
  process.env.TABLE_NAME ??= 'scale-simulation';
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.AWS_ACCESS_KEY_ID ??= 'simulation';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'simulation';
  const windowSeconds = Number(process.env.BENCH_SCALE_SECONDS ?? 10);
  tables.push(scaleReport(await scaleSimulation({ windowSeconds }), windowSeconds));
}

const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown'}), ${process.platform}/${process.arch}, Node ${process.version}`;
const runLine = `\`npm run bench\`, ${new Date().toISOString()}, on ${machine}`;
const report = ['# Benchmarks', `${runLine}.`, ...tables].join('\n\n');
console.log(report);
const page = new URL('../docs/performance.md', import.meta.url);
if (chosen.length === 0) {
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL('./results/latest.md', import.meta.url), `${report}\n`);
  // docs/performance.md shows the headline ratios and links the tables.
  writeFileSync(page, performanceBlock(readFileSync(page, 'utf8'), runLine, tables));
}
// The v2 transaction's figures in the docs are the last run's, whether it met its targets or not.
if (v2Table) writeFileSync(page, v2CostBlock(readFileSync(page, 'utf8'), runLine, v2Table));
const missed = missedGates(tables);
for (const line of missed) console.error(`Target missed: ${line}`);
process.exit(missed.length ? 1 : 0);
