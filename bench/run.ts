import './quiet.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { startLocalStack } from '../infra/local/stack.js';
import { coldStart } from './cold-start.js';
import { costPerOperation } from './cost.js';
import { warmLatency } from './latency.js';
import { consumerThroughput } from './throughput.js';

/** `npm run bench`: prints each table and writes them all to bench/results/latest.md. */
const stack = await startLocalStack({ port: 0, chatbotPort: 0, dynamoDbPort: 0, sqsPort: 0, tableName: 'bench', authorizerCacheTtlSeconds: 0, seed: true, visibilityTimeoutSeconds: 30 });
const tables: string[] = [];
try {
  // The fixture module builds its data through the API, as the tests do.
  const { fixture } = await import('../test/reliability/fixtures.js');
  const f = await fixture();
  tables.push(await costPerOperation(f));
  const again = await fixture();
  tables.push(await warmLatency(again));
  tables.push(await consumerThroughput(again.tenantId));
} finally {
  await stack.stop();
}
tables.push(await coldStart());
const report = [`# Benchmarks`, '', `Run ${new Date().toISOString()} on ${process.platform}/${process.arch}, Node ${process.version}.`, '', ...tables].join('\n\n');
console.log(report);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/latest.md', import.meta.url), `${report}\n`);
process.exit(0);
