import { beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../../shared/adapters/dynamodb.js';
import { keys } from '../../shared/keys.js';
import { inProcess } from '../support/api.js';
import { usePrivateQueue } from '../support/queues.js';
import { postLegacySale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * The evaluation index's month partitions are sharded (issue 35): a busy tenant's answers no longer all land on one
 * partition, and GET /public/rating/formbuilder still lists them newest first, page by page, with the evaluations a
 * deployment indexed before shards (the unsharded partition) in their place.
 */
const api = inProcess('public');
usePrivateQueue('surveyDispatch');
const SALES = 14;
let tenant: TestTenant;
let ids: number[];
const today = new Date().toISOString().slice(0, 10);

const itemOf = async (id: number) =>
  (await db().client.send(new GetCommand({ TableName: db().tableName, Key: keys.transaction(tenant.tenantId, id) }))).Item!;

beforeAll(async () => {
  tenant = await newTenant();
  ids = [];
  for (let i = 0; i < SALES; i++) {
    const res = await postLegacySale(api, tenant.key, { score: i % 11, customer_integration: `SH-${i}-${Date.now()}` });
    expect(res.status, res.text).toBe(201);
    ids.push(res.body.id);
  }
  // One evaluation as a deployment indexed it before shards: in the month's unsharded partition.
  await db().client.send(
    new UpdateCommand({
      TableName: db().tableName,
      Key: keys.transaction(tenant.tenantId, ids[3]!),
      UpdateExpression: 'SET gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.evaluationsByMonth(tenant.tenantId, today.slice(0, 7)) },
    }),
  );
});

describe('the evaluation index of a month, in shards', () => {
  it("spreads a month's evaluations over several partitions", async () => {
    const partitions = new Set((await Promise.all(ids.map(itemOf))).map((item) => item.gsi2pk));
    expect(partitions.size).toBeGreaterThan(2);
  });

  it('lists every evaluation once, newest first, across pages of every size', async () => {
    const all = (await Promise.all(ids.map(itemOf)))
      .sort((a, b) => String(b.gsi2sk).localeCompare(String(a.gsi2sk)))
      .map((item) => item.id);
    for (const limit of [1, 3, 5, 100]) {
      const listed: number[] = [];
      let cursor: string | undefined;
      do {
        const res = await api({
          path: '/public/rating/formbuilder',
          key: tenant.key,
          headers: { 'x-service-user-token': tenant.userToken },
          query: { start_date: today, end_date: today, limit, ...(cursor ? { cursor } : {}) },
        });
        expect(res.status, res.text).toBe(200);
        expect(res.body.data.length).toBeLessThanOrEqual(limit);
        listed.push(...res.body.data.map((evaluation: { id: number }) => evaluation.id));
        cursor = res.body.next_cursor ?? undefined;
      } while (cursor);
      expect(listed, `limit ${limit}`).toEqual(all);
    }
  });
});
