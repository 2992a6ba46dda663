import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { BATCH_TRIES, batchGet, db } from '../../shared/adapters/dynamodb.js';
import { isUnavailable } from '../../shared/adapters/unavailable.js';
import { whileBatchGetThrottled } from '../support/faults.js';

describe('batchGet against DynamoDB Local', () => {
  it('reads a key asked twice once, where BatchGetItem itself refuses a list with duplicates', async () => {
    // Prepare: two items (an export reads the case of each transaction key, and one transaction has several keys).
    const { client, tableName } = db();
    const pk = `TEST#batch-get#${Date.now()}`;
    await client.send(new PutCommand({ TableName: tableName, Item: { pk, sk: 'A', n: 1 } }));
    await client.send(new PutCommand({ TableName: tableName, Item: { pk, sk: 'B', n: 2 } }));
    // Act
    const items = await batchGet(db(), [
      { pk, sk: 'A' },
      { pk, sk: 'B' },
      { pk, sk: 'A' },
      { pk, sk: 'missing' },
    ]);
    // Assess
    expect(items.map((item) => item.n).sort()).toEqual([1, 2]);
  });

  it('asks again for the keys DynamoDB leaves unprocessed, and reads them all', async () => {
    // Prepare
    const { client, tableName } = db();
    const pk = `TEST#batch-get-retry#${Date.now()}`;
    await client.send(new PutCommand({ TableName: tableName, Item: { pk, sk: 'A', n: 1 } }));
    // Act
    const { result, calls } = await whileBatchGetThrottled(2, () => batchGet(db(), [{ pk, sk: 'A' }]));
    // Assess
    expect(result.map((item) => item.n)).toEqual([1]);
    expect(calls).toBe(3);
  });

  it('stops after eight calls that leave keys unprocessed, failing as throttled (a 503 with Retry-After)', async () => {
    // Act
    const started = Date.now();
    const { calls, error } = await whileBatchGetThrottled(Infinity, () =>
      batchGet(db(), [{ pk: 'TEST#batch-get-hot', sk: 'A' }]).then(
        () => ({ error: undefined }),
        (error: unknown) => ({ error }),
      ),
    ).then(({ result, calls }) => ({ ...result, calls }));
    // Assess: eight calls, the seven pauses between them jittered below 25 * 2^n ms (at most 3.55 s in all).
    expect(calls).toBe(BATCH_TRIES);
    expect(BATCH_TRIES).toBe(8);
    expect(isUnavailable(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_550 + 1_000);
  });
});
