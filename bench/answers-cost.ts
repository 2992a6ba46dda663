import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../shared/adapters/dynamodb.js';
import { toItem, transactionRepository } from '../shared/adapters/transaction-repository.js';
import type { TransactionRecord } from '../shared/transaction-record.js';
import { keys } from '../shared/keys.js';
import { projectionOf, TABLE } from '../shared/table.js';
import type { Fixture } from '../infra/examples.js';
import { inProcess } from '../test/support/api.js';
import { registerSale } from '../test/support/sales.js';
import { PRICES } from './cost.js';
import { meter } from './metering.js';

/** A comment as long as a long one in practice (the survey takes up to 2,000 characters). */
const COMMENT = 'O atendimento foi bom, mas a fila do caixa demorou muito e o produto que eu queria estava em falta. '.repeat(3);

/**
 * DynamoDB's size of an attribute value (its documented rules, to the byte for strings, close for numbers): what
 * decides the write units of an index entry.
 */
function sizeOf(value: unknown): number {
  if (value === null || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return Math.ceil(String(Math.abs(value)).replace(/^0\.|\./, '').length / 2) + 1;
  if (Array.isArray(value)) return 3 + value.reduce((total: number, item) => total + 1 + sizeOf(item), 0);
  if (typeof value === 'object')
    return 3 + Object.entries(value).reduce((total, [k, v]) => total + 1 + Buffer.byteLength(k) + sizeOf(v), 0);
  return 0;
}
export const itemSize = (item: Record<string, unknown>) =>
  Object.entries(item).reduce((total, [k, v]) => total + Buffer.byteLength(k) + sizeOf(v), 0);

/**
 * What the answer listing costs: the write units each answer (and each correction) adds for its two index entries
 * (gsi10, gsi11: computed from a real answered item's projection), and the read units of a page, measured.
 */
export async function answersCost(f: Fixture): Promise<string> {
  const api = inProcess('public', 300);
  for (let i = 0; i < 20; i++)
    await registerSale(api, f.key, { store_id: f.storeId, score: i % 11, comment: COMMENT, rating_items: [{ class_id: 1, score: 4 }] });
  const id = await registerSale(api, f.key, { store_id: f.storeId, score: 3, comment: COMMENT, rating_items: [{ class_id: 1, score: 2 }] });
  const { Item } = await db().client.send(new GetCommand({ TableName: db().tableName, Key: keys.transaction(f.tenantId, id) }));
  const rows = (['gsi10', 'gsi11'] as const).map((name) => {
    const index = TABLE.indexes.find((declared) => declared.name === name)!;
    const projection = projectionOf(index);
    const names = [
      TABLE.partitionKey,
      TABLE.sortKey,
      index.partitionKey,
      index.sortKey,
      ...(projection.type === 'INCLUDE' ? projection.attributes : []),
    ];
    const entry = Object.fromEntries(names.filter((n) => Item![n] !== undefined).map((n) => [n, Item![n]]));
    return { name, bytes: itemSize(entry), whole: itemSize(Item!) };
  });
  const writes = rows.reduce((total, row) => total + Math.ceil(row.bytes / 1024), 0);

  const pages: [string, Record<string, string | number>][] = [
    ["a store's first page (20 answers)", { store: f.storeId }],
    ["every store's first page (20 answers, 8 shards)", {}],
    ['detractors with a comment, first page', { bucket: 'detractor', has_comment: 'true' }],
  ];
  const reads: string[] = [];
  for (const [label, query] of pages) {
    const ask = { path: '/public/answers', key: f.key, headers: { 'x-service-user-token': f.userToken }, query: { ...query } };
    await api(ask);
    const metered = meter(db().client);
    const res = await metered.run(() => api(ask));
    const calls = metered.calls.filter((call) => call.command === 'Query');
    metered.stop();
    const read = Math.round(calls.reduce((total, call) => total + call.read, 0) * 100) / 100;
    reads.push(
      `| ${label} | ${(res.body as { data: unknown[] }).data.length} | ${calls.length} | ${read} | $${(read * PRICES.readUnit).toFixed(3)} |`,
    );
  }
  return [
    '### Answers: what listing them adds to each answer, and what a page reads (DynamoDB Local)',
    '',
    '| index entry | bytes (a 300-character comment, one class) | the whole transaction item, bytes | write units |',
    '|---|---:|---:|---:|',
    ...rows.map((row) => `| ${row.name} | ${row.bytes} | ${row.whole} | ${Math.ceil(row.bytes / 1024)} |`),
    '',
    `Each answer, and each correction (it changes the projected rating), writes ${writes} more write units for its two index entries ($${(writes * PRICES.writeUnit).toFixed(2)} per million answers); an update of the transaction's other attributes (attempts, contacts) writes neither (INCLUDE projection). At the scale target (10 million transactions a day, 30% answered, a 10x peak hour: 347 answers/s), a shard of gsi11 takes 347 / 8 = 43 write units/s at the peak, 4.3% of a partition's 1,000; a store's gsi10 partition 0.17/s (2,000 stores).`,
    '',
    '| page | answers | Queries | read units | $ per million pages |',
    '|---|---:|---:|---:|---:|',
    ...reads,
  ].join('\n');
}

/**
 * Grows store `f.storeId`'s answers from `size` to `target`: answered transactions written as the repository writes
 * them (`toItem` of a real answered `record` under new ids and times, a second apart before `started`, so the newest
 * stays the newest), by BatchWriteItem, eight at a time: the consumer would take hours here for 100,000.
 */
export async function seedAnswers(f: Fixture, record: TransactionRecord, started: number, size: number, target: number) {
  const { client, tableName } = db();
  const ids = Array.from({ length: target - size }, (_, i) => size + i);
  const chunks = Array.from({ length: Math.ceil(ids.length / 25) }, (_, c) => ids.slice(c * 25, c * 25 + 25));
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < chunks.length) {
        const chunk = chunks[next++]!;
        let requests = chunk.map((n) => {
          const at = new Date(started - n * 1000).toISOString();
          const id = 1_000_000_000 + n;
          return {
            PutRequest: {
              Item: {
                ...keys.transaction(f.tenantId, id),
                ...toItem(f.tenantId, {
                  ...record,
                  transaction: { ...record.transaction, id, transaction_id: null, created_at: at },
                  answer: { ...record.answer!, answeredAt: at },
                }),
              },
            },
          };
        });
        while (requests.length) {
          const out = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
          requests = (out.UnprocessedItems?.[tableName] ?? []) as typeof requests;
        }
      }
    }),
  );
}

const ANSWER_SIZES = (process.env.BENCH_ANSWER_SIZES ?? '1000,100000').split(',').map(Number);

/**
 * Whether a page of answers costs the same at any history: one store's answers grown to each size (answered
 * transactions written as the repository writes them, `toItem` of a real answered record under new ids and times,
 * by BatchWriteItem: the consumer would take hours here for 100,000), and at each size the read units of a store's
 * first page and of every store's. Sizes: BENCH_ANSWER_SIZES (default 1,000 and 100,000).
 */
export async function answersGrowth(f: Fixture, sizes = ANSWER_SIZES): Promise<string> {
  const api = inProcess('public', 300);
  const store = f.storeId;
  const seedId = await registerSale(api, f.key, { store_id: store, score: 4, comment: COMMENT, rating_items: [{ class_id: 1, score: 2 }] });
  const record = (await transactionRepository.findById(f.tenantId, seedId))!;
  const started = Date.now();
  let size = 1;
  const rows: string[] = [];
  const first = new Map<string, number>();
  for (const target of sizes) {
    await seedAnswers(f, record, started, size, target);
    size = target;
    for (const [label, query] of [
      ["a store's first page", { store }],
      ["every store's first page", {}],
    ] as const) {
      const ask = { path: '/public/answers', key: f.key, headers: { 'x-service-user-token': f.userToken }, query: { ...query } };
      await api(ask);
      const metered = meter(db().client);
      const res = await metered.run(() => api(ask));
      const calls = metered.calls.filter((call) => call.command === 'Query');
      metered.stop();
      const read = Math.round(calls.reduce((total, call) => total + call.read, 0) * 100) / 100;
      if (!first.has(label)) first.set(label, read);
      rows.push(
        `| ${label} | ${target.toLocaleString('en-US')} | ${(res.body as { data: unknown[] }).data.length} | ${calls.length} | ${read} | ${(read / first.get(label)!).toFixed(2)} |`,
      );
    }
  }
  return [
    `### Answers: a first page at ${sizes.map((s) => s.toLocaleString('en-US')).join(' and ')} answers in one store (DynamoDB Local)`,
    '',
    '| page | answers in the store | answers shown | Queries | read units | growth |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Growth is the read units over those at the first size. A page queries each partition once with a limit, newest first: its cost is the page's, not the history's.`,
  ].join('\n');
}
