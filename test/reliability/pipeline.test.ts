import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { findByRequestKey } from '../../shared/adapters/transaction-repository.js';
import { consume, usePrivateQueue } from '../support/queues.js';
import { usePrivateTable } from '../support/table.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { messageFor, v2Payload } from '../support/transactions.js';
import { snapshot } from './fixtures.js';

/** At-least-once delivery and faults in the consumer: nothing lost, nothing duplicated. */
let tenant: TestTenant;
// Its own table: the transactions are counted with a Scan (see usePrivateTable).
usePrivateTable();
// Survey dispatches of this file go to a queue of its own.
usePrivateQueue('surveyDispatch');

beforeAll(async () => {
  tenant = await newTenant();
});

const transactionsOf = async () =>
  (JSON.parse(await snapshot(tenant.tenantId)) as { entity: string; status?: string }[]).filter((i) => i.entity === 'TRANSACTION');
const shuffle = <T>(list: T[]) =>
  list
    .map((x) => [Math.random(), x] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, x]) => x);

describe('the transaction pipeline', () => {
  it('creates one transaction and one customer per message when each is delivered 2 and 5 times', async () => {
    const before = (await transactionsOf()).length;
    const twice = Array.from({ length: 10 }, () => messageFor(tenant.tenantId, v2Payload()));
    const fiveTimes = Array.from({ length: 10 }, () => messageFor(tenant.tenantId, v2Payload()));
    const deliveries = shuffle([...twice, ...twice, ...Array.from({ length: 5 }, () => fiveTimes).flat()]);
    for (let i = 0; i < deliveries.length; i += 10) expect((await consume(deliveries.slice(i, i + 10))).failed).toEqual([]);

    expect((await transactionsOf()).length - before).toBe(20);
    for (const m of [...twice, ...fiveTimes]) expect((await findByRequestKey(tenant.tenantId, m.requestId))?.status).toBe('created');
    console.info(`pipeline: ${deliveries.length} deliveries of 20 messages created 20 transactions`);
  });

  it('loses nothing and duplicates nothing when the consumer crashes mid-batch and the batch is redelivered', async () => {
    const before = (await transactionsOf()).length;
    const batch = Array.from({ length: 10 }, () => messageFor(tenant.tenantId, v2Payload()));
    let puts = 0;
    const stack = db().client.middlewareStack;
    stack.add(
      (next, context) => async (args) => {
        // The crash: after four transactions are written, every later write fails.
        if (
          /^Put(Item)?Command$/.test(String(context.commandName)) &&
          (args.input as { Item?: { entity?: string } }).Item?.entity === 'TRANSACTION' &&
          ++puts > 4
        ) {
          throw Object.assign(new Error('connection reset'), { name: 'TimeoutError', $metadata: {} });
        }
        return next(args);
      },
      { step: 'initialize', name: 'crashMidBatch' },
    );
    let failed: number[];
    try {
      failed = (await consume(batch)).failed;
    } finally {
      stack.remove('crashMidBatch');
    }
    expect(failed.length).toBeGreaterThan(0);
    expect((await transactionsOf()).length - before).toBe(10 - failed.length);

    // The event source redelivers the whole batch (a crashed invocation reports nothing); nothing is duplicated.
    expect((await consume(batch)).failed).toEqual([]);
    expect((await transactionsOf()).length - before).toBe(10);
  });
});
