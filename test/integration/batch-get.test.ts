import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { batchGet, db } from '../../shared/adapters/dynamodb.js';

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
});
