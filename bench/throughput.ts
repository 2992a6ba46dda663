import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import { lambdaContext } from '../infra/local/events.js';
import { handler } from '../functions/queue/transaction-consumer.js';
import { db } from '../shared/adapters/dynamodb.js';
import { keys } from '../shared/keys.js';
import { transactionIdFor } from '../shared/transactions/request-key.js';
import { messageFor, v2Payload } from '../test/support/transactions.js';

/**
 * Consumer throughput: transactions a second through the real consumer in batches of 10 (each with a new
 * customer and no rating, so every write happens), beside the floor: the same writes (guard, customer,
 * transaction) issued directly at the same concurrency.
 */
const TOTAL = Number(process.env.BENCH_TRANSACTIONS ?? 500);
const CONCURRENT_BATCHES = 4;

async function inBatches(run: (batch: number) => Promise<void>): Promise<number> {
  const batches = Math.ceil(TOTAL / 10);
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENT_BATCHES }, async () => {
    while (next < batches) await run(next++);
  }));
  return (TOTAL / (performance.now() - started)) * 1000;
}

export async function consumerThroughput(tenantId: number): Promise<string> {
  const { client, tableName } = db();
  const consumer = await inBatches(async () => {
    const event: SQSEvent = {
      Records: Array.from({ length: 10 }, (_, i) => ({
        messageId: `m${i}`, receiptHandle: `r${i}`, messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:local:0:q', awsRegion: 'local',
        attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'bench', ApproximateFirstReceiveTimestamp: '0' },
        body: JSON.stringify(messageFor(tenantId, v2Payload({ customer: { externalId: `B-${randomUUID()}`, name: 'Bench' } }))),
      })),
    };
    const { batchItemFailures } = await handler(event, lambdaContext('transactionConsumer'));
    if (batchItemFailures.length) throw new Error(`${batchItemFailures.length} records failed`);
  });
  const floor = await inBatches(async () => {
    await Promise.all(Array.from({ length: 10 }, async () => {
      const code = `F-${randomUUID()}`;
      const put = (Item: Record<string, unknown>) => client.send(new PutCommand({ TableName: tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' }));
      await put({ ...keys.externalId(tenantId, 'CUSTOMER', code), entity: 'BENCH', id: 1 });
      await put({ pk: `BENCH#${code}`, sk: 'CUSTOMER', name: 'Bench', gsi3pk: 'BENCH#NAME', gsi3sk: `bench#${code}` });
      await put({ ...keys.transaction(tenantId, transactionIdFor(code)), entity: 'BENCH', journey_id: 1 });
    }));
  });
  return [
    `### Consumer throughput (${TOTAL} transactions with new customers, batches of 10, ${CONCURRENT_BATCHES} batches at once; DynamoDB Local)`,
    '',
    '| path | transactions/s | ratio to floor |',
    '|---|---:|---:|',
    `| consumer (reads, rules, guard, customer, transaction) | ${consumer.toFixed(0)} | ${(consumer / floor).toFixed(2)} |`,
    `| floor: the same three writes issued directly | ${floor.toFixed(0)} | 1.00 |`,
    '',
    'Target: at least 0.8 of the floor.',
  ].join('\n');
}
