import { BatchGetCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { httpEvent, lambdaContext } from '../infra/local/events.js';
import { routes } from '../infra/routes.js';
import { db } from '../shared/adapters/dynamodb.js';
import { keys, padId } from '../shared/keys.js';
import type { Fixture } from '../test/support/requests.js';
import { transactionIdFor } from '../shared/transactions/request-key.js';

/**
 * Warm latency of the handler stack: operations invoked in-process through their real handler (middy, validation,
 * the authorizer's context, mapping) against DynamoDB Local, beside the bare SDK calls the same operation needs,
 * the two interleaved call by call so that both see the same machine. Only the ratios mean anything.
 */
export const CALLS = Number(process.env.BENCH_CALLS ?? 1000);

type Handler = (event: unknown, context: unknown) => Promise<APIGatewayProxyStructuredResultV2>;
const handlerOf = async (operationId: string) => {
  const route = routes.find((r) => r.operationId === operationId)!;
  return ((await import(pathToFileURL(new URL(`../functions/${route.handler}`, import.meta.url).pathname).href)) as { handler: Handler }).handler;
};

interface Case {
  operationId: string;
  event: () => ReturnType<typeof httpEvent>;
  floor: () => Promise<unknown>;
  floorCalls: string;
}

function cases(f: Fixture): Case[] {
  const { client, tableName } = db();
  const auth = { authenticated: true, tenantId: f.tenantId, scope: 'public' };
  const chatbot = { ...auth, scope: 'chatbot' };
  const txKey = keys.transaction(f.tenantId, f.transactionId);
  return [
    {
      operationId: 'getStore',
      event: () => httpEvent({ method: 'GET', routePath: '/public/store/{id}', rawPath: `/public/store/${f.storeId}`, pathParameters: { id: String(f.storeId) } }, auth),
      floor: () => client.send(new GetCommand({ TableName: tableName, Key: keys.entity(f.tenantId, 'STORE', f.storeId) })),
      floorCalls: 'GetItem',
    },
    {
      operationId: 'listStores',
      event: () => httpEvent({ method: 'GET', routePath: '/public/store', rawPath: '/public/store', query: { limit: '20' } }, auth),
      floor: () => client.send(new QueryCommand({ TableName: tableName, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.collection(f.tenantId, 'STORE') }, Limit: 20 })),
      floorCalls: 'Query',
    },
    {
      operationId: 'createCustomer',
      event: () => httpEvent({ method: 'POST', routePath: '/public/customer', rawPath: '/public/customer', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench Customer', email: 'bench@example.com' }) }, auth),
      floor: () => client.send(new PutCommand({ TableName: tableName, Item: { pk: `BENCH#${randomUUID()}`, sk: 'CUSTOMER', name: 'Bench Customer', email: 'bench@example.com', gsi3pk: 'BENCH#NAME', gsi3sk: `bench customer#${padId(1)}`, gsi5pk: 'BENCH#EMAIL', gsi5sk: padId(1) }, ConditionExpression: 'attribute_not_exists(pk)' })),
      floorCalls: 'PutItem (same attributes and indexes)',
    },
    {
      operationId: 'getTransaction',
      event: () => httpEvent({ method: 'GET', routePath: '/public/transaction/{id}', rawPath: `/public/transaction/${f.transactionId}`, pathParameters: { id: String(f.transactionId) } }, auth),
      floor: () => client.send(new GetCommand({ TableName: tableName, Key: txKey })),
      floorCalls: 'GetItem',
    },
    {
      operationId: 'getSurvey',
      event: () => httpEvent({ method: 'GET', routePath: '/survey', rawPath: '/survey', query: { transactionId: String(f.transactionId), attemptId: '1', journey: 'loja', source: 'whatsapp' } }, chatbot),
      floor: () => client.send(new GetCommand({ TableName: tableName, Key: txKey })),
      floorCalls: 'GetItem',
    },
    {
      operationId: 'postTransaction',
      event: () => httpEvent({ method: 'POST', routePath: '/public/transaction', rawPath: '/public/transaction', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ store_id: 1, employee_id: 1, customer_id: f.customerId, journey: 'loja', score: 9 }) }, auth),
      floor: async () => {
        await client.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: [keys.entity(f.tenantId, 'STORE', 1), keys.entity(f.tenantId, 'EMPLOYEE', 1), keys.entity(f.tenantId, 'CUSTOMER', f.customerId), keys.transaction(f.tenantId, transactionIdFor(randomUUID()))] } } }));
        await client.send(new PutCommand({ TableName: tableName, Item: { ...keys.transaction(f.tenantId, transactionIdFor(randomUUID())), entity: 'BENCH', journey_id: 1, store_id: 1, employee_id: 1, customer_id: f.customerId }, ConditionExpression: 'attribute_not_exists(pk)' }));
      },
      floorCalls: 'BatchGetItem, then a conditional PutItem',
    },
  ];
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

export async function warmLatency(f: Fixture): Promise<string> {
  const rows: string[] = [];
  for (const c of cases(f)) {
    const handler = await handlerOf(c.operationId);
    const stack: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < 20; i++) {
      await handler(c.event(), lambdaContext(c.operationId));
      await c.floor();
    }
    for (let i = 0; i < CALLS; i++) {
      let t = performance.now();
      const res = await handler(c.event(), lambdaContext(c.operationId));
      stack.push(performance.now() - t);
      if ((res.statusCode ?? 500) >= 300) throw new Error(`${c.operationId} answered ${res.statusCode}: ${res.body}`);
      t = performance.now();
      await c.floor();
      floor.push(performance.now() - t);
    }
    const [s50, s99, f50, f99] = [percentile(stack, 50), percentile(stack, 99), percentile(floor, 50), percentile(floor, 99)];
    rows.push(`| ${c.operationId} | ${s50.toFixed(1)} | ${s99.toFixed(1)} | ${c.floorCalls} | ${f50.toFixed(1)} | ${f99.toFixed(1)} | ${(s50 / f50).toFixed(2)} | ${(s99 / f99).toFixed(2)} |`);
  }
  return [
    `### Warm latency of the handler stack (${CALLS} calls each, interleaved with the floor; DynamoDB Local)`,
    '',
    '| operation | p50 ms | p99 ms | floor: bare SDK calls | floor p50 | floor p99 | p50 ratio | p99 ratio |',
    '|---|---:|---:|---|---:|---:|---:|---:|',
    ...rows,
    '',
    'Targets: p50 ratio at most 1.25, p99 ratio at most 1.5.',
  ].join('\n');
}
