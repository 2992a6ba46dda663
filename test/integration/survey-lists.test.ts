import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { daySurveys } from '../../shared/adapters/analytics-records.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { findByRequestKey } from '../../shared/adapters/transaction-repository.js';
import { keys } from '../../shared/keys.js';
import { consume, usePrivateQueue } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { messageFor, v2Payload } from '../support/transactions.js';

let tenant: TestTenant;
usePrivateQueue('surveyDispatch');

beforeAll(async () => {
  tenant = await newTenant();
});

/** The transaction ids the analytics export's day of surveys lists between two instants. */
async function listed(from: string, to: string): Promise<number[]> {
  const ids: number[] = [];
  for await (const page of daySurveys.between(tenant.tenantId, { from, to })) ids.push(...page.records.map((r) => r.transactionId));
  return ids;
}

describe("the analytics export's day of surveys, from the consumer's batch lists", () => {
  it('lists each transaction a batch registered once, with no entry of its own, and none of the requests it refused', async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    const messages = Array.from({ length: 9 }, () => messageFor(tenant.tenantId, v2Payload()));
    const refused = messageFor(tenant.tenantId, v2Payload({ transaction: { journeySlug: 'no-such-journey', externalId: 'REFUSED-1' } }));
    expect((await consume([...messages, refused])).failed).toEqual([]);
    // Delivered again: the same transactions, answered as duplicates, in a batch of their own (its own list).
    expect((await consume(messages.slice(0, 4))).failed).toEqual([]);

    const ids = await Promise.all(
      messages.map(async (m) => {
        const stored = await findByRequestKey(tenant.tenantId, m.requestId);
        if (stored?.status !== 'created') throw new Error('not created');
        return stored.record.transaction.id;
      }),
    );
    expect((await findByRequestKey(tenant.tenantId, refused.requestId))?.status).toBe('rejected');
    const to = new Date(Date.now() + 1000).toISOString();
    expect((await listed(from, to)).sort()).toEqual([...ids].sort());

    // Listed by the batch's one item, not by an entry in gsi15 each.
    const { Item: item } = await db().client.send(
      new GetCommand({ TableName: db().tableName, Key: keys.transaction(tenant.tenantId, ids[0]!) }),
    );
    expect(item?.gsi15pk).toBeUndefined();
    expect(String(item?.survey_list)).toMatch(/^\d{4}-\d\d-\d\dT.+#L/);
    // A day that ends before the batch's instant lists none of them.
    expect(await listed(new Date(Date.now() - 86_400_000).toISOString(), from)).toEqual([]);
  });
});
