import { GetCommand } from '@aws-sdk/lib-dynamodb';
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
});
