import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { db } from '../shared/adapters/dynamodb.js';
import { keys } from '../shared/keys.js';
import { transactionIdFor } from '../shared/transactions/request-key.js';
import { consume } from '../test/support/queues.js';
import { messageFor, v2Payload } from '../test/support/transactions.js';

/**
 * Consumer throughput: transactions a second through the real consumer in batches of 10 (each with a new
 * customer and no rating, so every write happens), beside the floor: the same writes (guard, customer,
 * transaction) issued directly at the same concurrency.
 */
export interface ThroughputOptions {
  /** Transactions per measured round. */
  transactions: number;
  rounds: number;
}
const CONCURRENT_BATCHES = 4;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Transactions a second for `total` transactions run as batches of 10, CONCURRENT_BATCHES at a time. */
async function rate(total: number, runBatch: () => Promise<void>): Promise<number> {
  const batches = Math.ceil(total / 10);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENT_BATCHES }, async () => {
      while (next++ < batches) await runBatch();
    }),
  );
  return (batches * 10 * 1000) / (performance.now() - started);
}

export async function consumerThroughput(tenantId: number, { transactions, rounds }: ThroughputOptions): Promise<string> {
  const { client, tableName } = db();
  const consumerBatch = async () => {
    const { failed } = await consume(
      Array.from({ length: 10 }, () => messageFor(tenantId, v2Payload({ customer: { externalId: `B-${randomUUID()}`, name: 'Bench' } }))),
    );
    if (failed.length) throw new Error(`${failed.length} records failed`);
  };
  const floorBatch = async () => {
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        const code = `F-${randomUUID()}`;
        const put = (Item: Record<string, unknown>) =>
          client.send(new PutCommand({ TableName: tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' }));
        await put({ ...keys.externalId(tenantId, 'CUSTOMER', code), entity: 'BENCH', id: 1 });
        await put({ pk: `BENCH#${code}`, sk: 'CUSTOMER', name: 'Bench', gsi3pk: 'BENCH#NAME', gsi3sk: `bench#${code}` });
        await put({ ...keys.transaction(tenantId, transactionIdFor(code)), entity: 'BENCH', journey_id: 1 });
      }),
    );
  };
  // Both warm up (DynamoDB Local's JIT, the SDK's connections), then run in alternating rounds: medians of rounds.
  await rate(Math.min(transactions, 100), consumerBatch);
  await rate(Math.min(transactions, 100), floorBatch);
  const consumerRates: number[] = [];
  const floorRates: number[] = [];
  for (let round = 0; round < rounds; round++) {
    consumerRates.push(await rate(transactions, consumerBatch));
    floorRates.push(await rate(transactions, floorBatch));
  }
  const [consumer, floor] = [median(consumerRates), median(floorRates)];
  return [
    `### Consumer throughput (${transactions} transactions with new customers, batches of 10, ${CONCURRENT_BATCHES} batches at once; median of ${rounds} alternating rounds after a warm-up; DynamoDB Local)`,
    '',
    '| path | transactions/s | ratio to floor |',
    '|---|---:|---:|',
    `| consumer (reads, rules, guard, customer, transaction) | ${consumer.toFixed(0)} | ${(consumer / floor).toFixed(2)} |`,
    `| floor: the same three writes issued directly | ${floor.toFixed(0)} | 1.00 |`,
    '',
    'Target: at least 0.8 of the floor.',
  ].join('\n');
}
