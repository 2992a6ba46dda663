import { BatchGetCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { meter } from '../../bench/metering.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { whileSlow } from '../support/faults.js';

describe('the round-trip meter of the cost tables', () => {
  it("counts none of the calls in flight when it is reset (a poller's) against the operation measured next", async () => {
    // Prepare: a call another piece of work sent, still on its way when the measurement starts.
    const { client, tableName } = db();
    const metered = meter(client);
    try {
      const get = (pk: string) => client.send(new GetCommand({ TableName: tableName, Key: { pk, sk: pk } }));
      let inFlight: Promise<unknown> = Promise.resolve();
      await whileSlow(
        (_, key) => key?.pk === 'TEST#meter#other',
        () => 300,
        async () => {
          inFlight = get('TEST#meter#other');
          await new Promise((resolve) => setTimeout(resolve, 50));
          // Act
          metered.reset();
          await metered.run(() => get('TEST#meter#measured'));
          await inFlight;
        },
      );
      // Assess
      expect(metered.calls.map((call) => call.pk)).toEqual(['TEST#meter#measured']);
    } finally {
      metered.stop();
    }
  });

  it('bills a read that finds nothing as DynamoDB bills it, though DynamoDB Local reports none', async () => {
    // Prepare: one item present; every other key names nothing.
    const { client, tableName } = db();
    const pk = `TEST#meter#reads#${Math.random()}`;
    await client.send(new PutCommand({ TableName: tableName, Item: { pk, sk: 'present' } }));
    const metered = meter(client);
    try {
      // Act
      const read = async (work: () => Promise<unknown>) => {
        metered.reset();
        await metered.run(work);
        return metered.totals().read;
      };
      const get = (sk: string, consistent: boolean) =>
        read(() => client.send(new GetCommand({ TableName: tableName, Key: { pk, sk }, ConsistentRead: consistent })));
      const query = (partition: string) =>
        read(() =>
          client.send(
            new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': partition } }),
          ),
        );
      const keys = ['present', 'absent-1', 'absent-2', 'absent-3'].map((sk) => ({ pk, sk }));
      const batch = () => read(() => client.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys } } })));

      // Assess: half a unit an item eventually consistent, one strongly, found or not; a Query at least half a unit.
      expect([await get('absent', false), await get('absent', true), await get('present', true)]).toEqual([0.5, 1, 1]);
      expect([await query(`${pk}#empty`), await query(pk)]).toEqual([0.5, 0.5]);
      expect(await batch()).toBe(2);
    } finally {
      metered.stop();
    }
  });
});
