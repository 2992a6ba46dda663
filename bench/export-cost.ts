import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { exportJobs } from '../shared/adapters/export-jobs.js';
import { transactionRepository } from '../shared/adapters/transaction-repository.js';
import { ANSWER_EXPORT, exportFilters, exportIdOf } from '../shared/answers/export.js';
import { DAY_MS } from '../shared/dates.js';
import { consumerTimeoutOf } from '../shared/queues.js';
import type { Fixture } from '../infra/examples.js';
import { inProcess } from '../test/support/api.js';
import { registerSale } from '../test/support/sales.js';
import { seedAnswers } from './answers-cost.js';

/** The export consumer's memory (the functions' default, infra/constructs/service-function.ts) and its timeout. */
const FUNCTION_MB = 512;
const EXPORT_SIZES = (process.env.BENCH_EXPORT_SIZES ?? '1000,100000').split(',').map(Number);
const COMMENT = 'O atendimento foi bom, mas a fila do caixa demorou muito e o produto que eu queria estava em falta. '.repeat(3);
const run = promisify(execFile);
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/**
 * The workspace export at each size of one store's answers (BENCH_EXPORT_SIZES, default 1,000 and 100,000; each
 * with a 300-character comment and a name): a job as the page's button writes it, run in a process of its own as
 * its function would (bench/export-run.ts) against DynamoDB Local and the local S3-compatible server. Its peak
 * resident memory is set beside the function's memory, its time beside the consumer's timeout; the same peak at
 * 1,000 and at 100,000 is what "bounded" means.
 */
export async function exportCost(f: Fixture, sizes = EXPORT_SIZES): Promise<string> {
  const api = inProcess('public', 300);
  const seedId = await registerSale(api, f.key, { store_id: f.storeId, score: 9, comment: COMMENT, name: 'Maria Bench' });
  const record = (await transactionRepository.findById(f.tenantId, seedId))!;
  const started = Date.now();
  const limitSeconds = consumerTimeoutOf('exports');
  let size = 1;
  const rows: string[] = [];
  for (const target of sizes) {
    await seedAnswers(f, record, started, size, target);
    size = target;
    const now = Date.now();
    const filters = exportFilters({ store: String(f.storeId) }, now);
    const job = {
      id: exportIdOf(`bench-${target}`, filters),
      run: randomUUID(),
      user: `bench-${target}`,
      filters,
      scope: 'all' as const,
      status: 'running' as const,
      rows: 0,
      startedAt: new Date(now).toISOString(),
    };
    await exportJobs.start(f.tenantId, job, { staleBefore: job.startedAt, expiresAt: new Date(now + ANSWER_EXPORT.jobDays * DAY_MS) });
    const { stdout } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        fileURLToPath(new URL('./export-run.ts', import.meta.url)),
        JSON.stringify({ tenantId: f.tenantId, id: job.id, run: job.run }),
      ],
      { env: process.env, maxBuffer: 1024 * 1024 },
    );
    const measured = JSON.parse(stdout.trim().split('\n').at(-1)!) as { seconds: number; beforeBytes: number; peakBytes: number };
    const written = (await exportJobs.find(f.tenantId, job.id))!;
    rows.push(
      `| ${target.toLocaleString('en-US')} | ${written.rows.toLocaleString('en-US')} | ${mb(measured.beforeBytes)} | ${mb(measured.peakBytes)} | ${FUNCTION_MB} | ${(mb(measured.peakBytes) / FUNCTION_MB).toFixed(2)} | ${measured.seconds.toFixed(1)} | ${limitSeconds} | ${(measured.seconds / limitSeconds).toFixed(2)} | ${Math.round(written.rows / measured.seconds).toLocaleString('en-US')} |`,
    );
  }
  return [
    `### Workspace export: ${sizes.map((s) => s.toLocaleString('en-US')).join(' and ')} answers of one store to one file (DynamoDB Local, local S3)`,
    '',
    '| answers | rows written | RSS before, MB | peak RSS, MB | limit: function memory, MB | RSS ratio | time, s | limit: consumer timeout, s | time ratio | rows/s |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    "One process per run, as its function: the peak is the process's (Node and the modules included, about 115 MB before the run), the time the run's (100 answers a page, their names, the access log's entry, the multipart upload of two 5 MB parts at a time). The peak grows far less than the file (V8 collects lazily under a heap it may still grow); what the run holds is a page and the parts being uploaded.",
  ].join('\n');
}
