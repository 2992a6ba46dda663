import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meter } from '../../bench/metering.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { consume, usePrivateQueue } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { messageFor, v2Payload } from '../support/transactions.js';

let tenant: TestTenant;
// Survey dispatches of this file go to a queue of its own.
usePrivateQueue('surveyDispatch');
let metered: ReturnType<typeof meter>;

beforeAll(async () => {
  tenant = await newTenant();
  // Warm the caches a running consumer has: the tenant's settings and a block of transaction ids.
  await consume([messageFor(tenant.tenantId, v2Payload({ customer: { externalId: 'KNOWN', name: 'Known', phone: '11988887777' } }))]);
  metered = meter(db().client);
});
afterAll(async () => {
  metered.stop();
});

/** The DynamoDB cost of one v2 transaction through the consumer (the API handler makes no DynamoDB call). */
async function cost(payload: Record<string, unknown>) {
  metered.reset();
  const { failed } = await consume([messageFor(tenant.tenantId, payload)]);
  expect(failed).toEqual([]);
  // The configuration's version (one GetItem) is read beside the batch's first read, so it may finish before or after it.
  // So is the batch's list of its registrations (one PutItem of its own partition).
  const commands = metered.calls.map((c) => c.command);
  expect(commands.filter((c) => c === 'GetItem')).toHaveLength(1);
  const lists = metered.calls.filter((c) => c.pk?.includes('#SURVEYS#'));
  expect(lists.map((c) => [c.command, c.write])).toEqual([['PutItem', 1]]);
  return {
    ...metered.totals(),
    commands: metered.calls.filter((c) => c.command !== 'GetItem' && !lists.includes(c)).map((c) => c.command),
  };
}

describe('what a v2 transaction costs in DynamoDB', () => {
  it("with an existing customer: the configuration version beside two batched reads, and one conditional write (and its entry in the customer's index; the batch's list for the export)", async () => {
    const figures = await cost(v2Payload({ customer: { externalId: 'KNOWN' } }));
    expect(figures.commands).toEqual(['BatchGetItem', 'BatchGetItem', 'PutItem']);
    // the transaction 1 and its entry in the customer's index of transactions 1 (keys only: no later change of the
    // transaction writes it again); the batch's list of the day's surveys 1, for the batch of one
    expect(figures.write).toBe(3);
    // 1 of them the configuration's version, read strongly beside the batch read
    expect(figures.read).toBeLessThanOrEqual(4);
  });

  it("with customer, store and employee by internal id: the configuration version beside one batched read, and one conditional write (and its entry in the customer's index; the batch's list for the export)", async () => {
    const figures = await cost(v2Payload({ customer: { id: 1 } }));
    expect(figures.commands).toEqual(['BatchGetItem', 'PutItem']);
    expect(figures.write).toBe(3);
    // The configuration's version, 1 (strongly consistent), and the batch read's 4 keys (the store, the employee, the
    // customer and the request's transaction), half a unit each, found or not, as DynamoDB bills them.
    expect(figures.read).toBe(3);
  });

  it('with a new customer: its guard, then the customer with one index entry per searchable field, then the transaction', async () => {
    const figures = await cost(v2Payload());
    expect(figures.commands).toEqual(['BatchGetItem', 'PutItem', 'PutItem', 'PutItem']);
    // guard 1 + customer 1 + its name, e-mail and phone index entries 3 + transaction 1 and its entry in the
    // customer's index of transactions 1 + the batch's list of the day's surveys 1 (the customer's id comes from a
    // reserved block)
    expect(figures.write).toBe(8);
  });
});

describe('what a batch of v2 transactions costs in DynamoDB', () => {
  it('reads the whole batch at once: one BatchGetItem for ten transactions, each key once', async () => {
    metered.reset();
    const known = Array.from({ length: 5 }, () => messageFor(tenant.tenantId, v2Payload({ customer: { externalId: 'KNOWN' } })));
    const byId = Array.from({ length: 5 }, () => messageFor(tenant.tenantId, v2Payload({ customer: { id: 1 } })));
    const { failed } = await consume([...known, ...byId]);
    expect(failed).toEqual([]);
    const reads = metered.calls.filter((c) => c.command === 'BatchGetItem');
    // Ten transaction keys, the guard of KNOWN, store 1, employee 1 and customer 1, which is KNOWN: nothing is left
    // for a second read.
    expect(reads).toHaveLength(1);
    // The configuration's version is checked once for the batch, beside its read.
    expect(metered.calls.filter((c) => c.command === 'GetItem')).toHaveLength(1);
    // Ten transactions, each 2 write units (no entry of its own in the export's list), and the batch's one list.
    const puts = metered.calls.filter((c) => c.command === 'PutItem');
    expect(puts.filter((c) => c.pk?.includes('#TX#')).map((c) => c.write)).toEqual(Array(10).fill(2));
    expect(puts.filter((c) => c.pk?.includes('#SURVEYS#')).map((c) => c.write)).toEqual([1]);
    expect(puts).toHaveLength(11);
    expect(metered.totals().write).toBe(21);
    expect(metered.totals().read).toBeLessThanOrEqual(9);
  });
});
