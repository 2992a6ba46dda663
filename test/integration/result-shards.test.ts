import { beforeAll, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, queryAll } from '../../shared/adapters/dynamodb.js';
import { putDelivery, putSettings } from '../../shared/adapters/tenant-repository.js';
import { keys } from '../../shared/keys.js';
import { deliverSurvey } from '../../shared/surveys/delivery.js';
import type { DispatchMessage } from '../../shared/surveys/dispatch.js';
import { inProcess } from '../support/api.js';
import { deliveryPorts, linkConfig } from '../support/delivery.js';
import { usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';

/**
 * A busy journey's result counters spread over its `resultShards` partitions (issue 35): the journey's own counter,
 * which every answer and send moves, lands in several partitions instead of one, and the report sums them, with the
 * counters a deployed tenant wrote before shards existed (the unsharded key is shard 0).
 */
const SHARDS = 4;
const SALES = 12;
const dispatch = usePrivateQueue('surveyDispatch');
const api = inProcess('public');
const chatbot = inProcess('chatbot');
let tenant: TestTenant;
const today = new Date().toISOString().slice(0, 10);

const results = (groupBy: string) =>
  api({
    path: '/public/results',
    key: tenant.key,
    headers: { 'x-service-user-token': tenant.userToken },
    query: { journey: 'loja', from: today, to: today, group_by: groupBy },
  });

beforeAll(async () => {
  tenant = await newTenant();
  await putSettings(tenant.tenantId, {
    ...DEMO_SETTINGS,
    journeys: DEMO_SETTINGS.journeys.map((journey) => (journey.slug === 'loja' ? { ...journey, resultShards: SHARDS } : journey)),
  });
  await putDelivery(tenant.tenantId, { quietHours: null, email: { from: 'pesquisa@loja.example', name: 'Loja Exemplo' } });
  // A counter as a deployment wrote it before shards: one sent survey of store 1 today, at the unsharded key.
  await db().client.send(
    new UpdateCommand({
      TableName: db().tableName,
      Key: { pk: `T#${tenant.tenantId}#RESULTS#1#${today.slice(0, 7)}`, sk: `D#all#${today}` },
      UpdateExpression: 'SET #entity = :entity ADD sent :one',
      ExpressionAttributeNames: { '#entity': 'entity' },
      ExpressionAttributeValues: { ':entity': 'RESULT', ':one': 1 },
    }),
  );
  for (let i = 0; i < SALES; i++) {
    const id = await registerSale(api, tenant.key, { store_id: 1, employee_id: 1 });
    const [message] = await dispatch.drain();
    expect(await deliverSurvey({ message: message as DispatchMessage, ports: deliveryPorts, config: linkConfig() })).toBe('sent');
    const answered = await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: { transactionId: id, attemptId: 1, journey: 'loja', score: i % 2 ? 10 : 3, classes: [] },
    });
    expect(answered.status, answered.text).toBe(201);
  }
});

describe('result counters of a sharded journey', () => {
  it("spreads the journey's own day and month counters over its shards", async () => {
    for (const [partition, sort] of [
      [today.slice(0, 7), `D#all#${today}`],
      [today.slice(0, 4), `M#all#${today.slice(0, 7)}`],
    ] as const) {
      const holding = new Set<unknown>();
      for (let index = 0; index < SHARDS; index++) {
        const shard = { dimension: 'all', index };
        const items = await queryAll(db(), {
          partition: keys.results(tenant.tenantId, { journeyId: 1, partition, shard }),
          sortBeginsWith: sort,
        });
        for (const item of items) holding.add(item.pk);
      }
      // Twelve transactions with ids hashed from their requests: the journey's counter lands in more than one partition.
      expect(holding.size, partition).toBeGreaterThan(1);
    }
  });

  it('sums every shard, and the counters written before shards, in the report', async () => {
    for (const groupBy of ['journey', 'day', 'month']) {
      const res = await results(groupBy);
      expect(res.status, res.text).toBe(200);
      // The old counter adds one survey sent and no answer.
      expect(res.body.data, groupBy).toEqual([
        expect.objectContaining({ responses: SALES, sent: SALES + 1, nps: expect.objectContaining({ promoters: 6, detractors: 6 }) }),
      ]);
    }
    // A store's counter stays one item in one shard: the report by store reads it once.
    const stores = (await results('store')).body.data;
    expect(stores).toEqual([expect.objectContaining({ key: '1', responses: SALES, sent: SALES })]);
    // Named, a store is read from its one shard.
    const store = await api({
      path: '/public/results',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      query: { journey: 'loja', from: today, to: today, group_by: 'employee', store: 1 },
    });
    expect(store.body.data).toEqual([expect.objectContaining({ key: '1', responses: SALES, sent: SALES })]);
  });
});
