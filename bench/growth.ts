import { randomUUID } from 'node:crypto';
import type { Fixture } from '../infra/examples.js';
import { db } from '../shared/adapters/dynamodb.js';
import { inProcess, type ApiClient, type ApiRequest } from '../test/support/api.js';
import { consume } from '../test/support/queues.js';
import type { TransactionMessage } from '../shared/transactions/message.js';
import { messageFor, outcomePath, v2Payload } from '../test/support/transactions.js';
import { meter } from './metering.js';

/**
 * How cost grows with a tenant: one tenant grown to each size in turn (a new customer with each transaction, as the
 * consumer registers them: batches of 10, four at a time), and at each size the round trips, read units and warm
 * latency of the reads that could grow with it. Sizes: BENCH_GROWTH_SIZES (default 1,000 and 10,000; 100,000 takes
 * about a quarter of an hour here).
 */
const SIZES = (process.env.BENCH_GROWTH_SIZES ?? '1000,10000').split(',').map(Number);
const FIRST = ['Maria', 'Marcos', 'Ana', 'João', 'Pedro', 'Paula', 'Lucas', 'Júlia', 'Carlos', 'Beatriz'];
const LAST = ['Silva', 'Souza', 'Oliveira', 'Santos', 'Lima', 'Pereira', 'Costa', 'Rodrigues', 'Almeida', 'Nascimento'];
const CALLS = 15;
const DAY_MS = 86_400_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Registers `count` transactions, each with a new customer and a rating on one of the last 30 days. */
async function grow(client: ApiClient, f: Fixture, from: number, count: number, target: number): Promise<void> {
  const batches = Math.ceil(count / 10);
  let next = 0;
  let done = from;
  let last: TransactionMessage[] = [];
  const started = Date.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next++ < batches) {
        const messages = Array.from({ length: 10 }, (_, i) => {
          const n = done + i;
          const unique = randomUUID().slice(0, 12);
          return messageFor(
            f.tenantId,
            v2Payload({
              customer: {
                externalId: `G-${unique}`,
                name: `${FIRST[n % FIRST.length]} ${LAST[Math.floor(n / FIRST.length) % LAST.length]}`,
                email: `g-${unique}@example.com`,
              },
              transaction: {
                journeySlug: 'loja',
                externalId: `GT-${unique}`,
                amount: 10 + (n % 90),
                date: new Date(Date.now() - (n % 30) * DAY_MS).toISOString(),
              },
              rating: { score: n % 11 },
            }),
          );
        });
        const { failed } = await consume(messages);
        if (failed.length) throw new Error(`${failed.length} records failed while seeding`);
        last = messages;
        done += 10;
        if (done % 1000 === 0)
          process.stderr.write(
            `\rgrowth: ${done.toLocaleString('en-US')} of ${target.toLocaleString('en-US')} transactions (${Math.round((Date.now() - started) / 1000)} s)`,
          );
      }
    }),
  );
  process.stderr.write('\n');
  // A seed the consumer rejected would measure an empty tenant: the last batch must have been created.
  for (const message of last) {
    const { body } = await client({ path: outcomePath(message), key: f.key });
    if ((body as { status?: string }).status !== 'created')
      throw new Error(`A seeded transaction was not created: ${JSON.stringify(body)}`);
  }
}

/** `calls`: how often each read is timed at each size (its median is the p50). */
export async function growth(f: Fixture, sizes = SIZES, { calls = CALLS } = {}): Promise<string> {
  const client = inProcess('public', 300);
  const today = new Date().toISOString().slice(0, 10);
  const monthAgo = new Date(Date.now() - 29 * DAY_MS).toISOString().slice(0, 10);
  // One customer made first, to be found by e-mail at every size.
  const probe = `probe-${randomUUID().slice(0, 8)}@example.com`;
  await consume([
    messageFor(f.tenantId, v2Payload({ customer: { externalId: `G-${randomUUID()}`, name: 'Probe Customer', email: probe } })),
  ]);
  const reads: [string, ApiRequest][] = [
    [
      'customers by name prefix ("mar")',
      { path: '/public/customer', headers: { 'x-service-user-token': f.userToken }, query: { name: 'mar' } },
    ],
    ['customer by e-mail', { path: '/public/customer', headers: { 'x-service-user-token': f.userToken }, query: { email: probe } }],
    ['customers, first page, no filter', { path: '/public/customer', headers: { 'x-service-user-token': f.userToken } }],
    ['stores, first page', { path: '/public/store' }],
    // Every seeded transaction is rated in store 1: its partition holds them all, the tenant's 8 shards an eighth each.
    ["a store's answers, first page", { path: '/public/answers', headers: { 'x-service-user-token': f.userToken }, query: { store: 1 } }],
    ['answers of every store, first page', { path: '/public/answers', headers: { 'x-service-user-token': f.userToken } }],
    [
      'results over 30 days by store',
      {
        path: '/public/results',
        headers: { 'x-service-user-token': f.userToken },
        query: { journey: 'loja', from: monthAgo, to: today, group_by: 'store' },
      },
    ],
  ];
  const rows: string[] = [];
  const first = new Map<string, number>();
  let size = 1;
  for (const target of sizes) {
    const started = Date.now();
    await grow(client, f, size, target - size, target);
    const seconds = Math.round((Date.now() - started) / 1000);
    size = target;
    for (const [name, request] of reads) {
      const ask = { ...request, key: f.key };
      const res = await client(ask);
      if (res.status !== 200) throw new Error(`${name} answered ${res.status}`);
      const metered = meter(db().client);
      const answer = await metered.run(() => client(ask));
      const { roundTrips, read } = metered.totals();
      metered.stop();
      const times: number[] = [];
      for (let i = 0; i < calls; i++) {
        const t = performance.now();
        await client(ask);
        times.push(performance.now() - t);
      }
      const items = (answer.body as { data?: unknown[] }).data?.length ?? 0;
      if (!first.has(name)) first.set(name, read);
      rows.push(
        `| ${name} | ${target.toLocaleString('en-US')} | ${items} | ${roundTrips} | ${read} | ${median(times).toFixed(1)} | ${(read / first.get(name)!).toFixed(2)} |`,
      );
    }
    rows.push(`| *seeded ${target.toLocaleString('en-US')} in ${seconds} s* | | | | | | |`);
  }
  return [
    `### How cost grows with a tenant (one tenant grown to ${sizes.map((s) => s.toLocaleString('en-US')).join(', ')} customers and as many rated transactions, through the consumer; DynamoDB Local)`,
    '',
    '| read | customers | items answered | round trips | read units | p50 ms | growth |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Growth is the read units over those at ${sizes[0]!.toLocaleString('en-US')} customers; p50 is the median of ${calls} warm calls. Target: growth at most 1.5 (a read that grows with the tenant is a bug). Larger sizes: \`BENCH_GROWTH_SIZES=1000,10000,100000 npm run bench -- growth\`.`,
  ].join('\n');
}
