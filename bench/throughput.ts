import { randomUUID } from 'node:crypto';
import { consume } from '../test/support/queues.js';
import { messageFor, v2Payload } from '../test/support/transactions.js';
import { capture, replayable } from './latency.js';

/**
 * Consumer throughput: transactions a second through the real consumer in batches of 10 (each with a new
 * customer and no rating, so every write happens), beside the floor: the same calls issued directly at the same
 * concurrency, as the consumer made them in its warm-up: the batch's one read (a consumer cannot know which
 * customers are new before it), then each record's guard, customer and transaction in order, records side by side.
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
  const consumerBatch = async () => {
    const { failed } = await consume(
      Array.from({ length: 10 }, () => messageFor(tenantId, v2Payload({ customer: { externalId: `B-${randomUUID()}`, name: 'Bench' } }))),
    );
    if (failed.length) throw new Error(`${failed.length} records failed`);
  };
  // The calls of one batch, as the consumer made them: one read of what the batch names, then each record's guard,
  // customer and transaction.
  const recorder = capture();
  await consumerBatch();
  recorder.stop();
  const read = recorder.calls.find((call) => call.command === 'BatchGetItemCommand');
  if (!read) throw new Error('The consumer read nothing for its batch');
  const puts = recorder.calls.filter((call) => call.command === 'PutItemCommand');
  const chain = ['CUSTOMER_EXT', 'CUSTOMER', 'TRANSACTION'].map((entity) => {
    const put = puts.find((call) => call.input.Item?.entity === entity);
    if (!put) throw new Error(`The consumer wrote no ${entity} item`);
    return put;
  });
  const floorBatch = async () => {
    await replayable(read)();
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (const put of chain) await replayable(put)();
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
    `| floor: the batch's read, then each record's three writes, issued directly | ${floor.toFixed(0)} | 1.00 |`,
    '',
    'Target: at least 0.8 of the floor.',
  ].join('\n');
}
