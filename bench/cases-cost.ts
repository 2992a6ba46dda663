import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Fixture } from '../infra/examples.js';
import { invoke } from '../infra/local/invoke.js';
import { handler as caseOpenerHandler } from '../functions/queue/case-opener.js';
import { caseItem, caseStore } from '../shared/adapters/case-repository.js';
import { db } from '../shared/adapters/dynamodb.js';
import { putDelivery, raiseConfigVersion } from '../shared/adapters/tenant-repository.js';
import { tenantService } from '../shared/adapters/wiring/tenants.js';
import type { CaseRecord } from '../shared/cases/record.js';
import { inProcess } from '../test/support/api.js';
import { sqsEvent } from '../test/support/queues.js';
import { registerSale } from '../test/support/sales.js';
import { PRICES } from './cost.js';
import { meter } from './metering.js';

const CASE_SIZES = (process.env.BENCH_CASE_SIZES ?? '100,100000').split(',').map(Number);
/** The open cases of the store whose list is read, whatever the tenant's size. */
const STORE_OPEN = 20;

const sum = (calls: { read: number; write: number }[], field: 'read' | 'write') =>
  Math.round(calls.reduce((total, call) => total + call[field], 0) * 100) / 100;

/**
 * What cases cost: opening one and its alert, in DynamoDB round trips and write units (the consumer invoked on a real
 * detractor's message, metered), and whether a store's open cases page reads the same units at any size of the
 * tenant: cases written as the repository writes them (`caseItem`), by BatchWriteItem, in stores other than the one
 * read, up to each size of BENCH_CASE_SIZES (default 100 and 100,000).
 */
export async function casesCost(f: Fixture, sizes = CASE_SIZES): Promise<string> {
  const api = inProcess('public', 300);
  const chatbot = inProcess('chatbot', 300);
  // A manager of the store to alert, and the tenant's sender address (a new configuration version, so that it is read).
  await tenantService.createUser(f.tenantId, { name: `gerente-${f.storeId}@bench.test`, scope: { stores: [f.storeId], groups: [] } });
  await putDelivery(f.tenantId, { quietHours: null, email: { from: 'pesquisa@bench.test' } });
  await raiseConfigVersion(f.tenantId);
  // Opening: a detractor's answer, its message consumed once (open, alert, deadline timer) and again (a redelivery: the
  // deadline timer put again, the same item).
  const id = await registerSale(api, f.key, { store_id: f.storeId, phone: '11987654321' });
  await chatbot({
    method: 'POST',
    path: '/survey',
    key: f.chatbotKey,
    body: { transactionId: id, attemptId: 1, journey: 'loja', score: 2, classes: [], comment: 'Demorou muito' },
  });
  const message = { tenantId: f.tenantId, transactionId: id, version: 1 };
  const opening: string[] = [];
  for (const label of ['opening a case (first delivery of its message)', 'a redelivered message']) {
    const metered = meter(db().client);
    await metered.run(() => invoke('caseOpener', caseOpenerHandler, sqsEvent([message], { queue: 'CaseQueue' })));
    const calls = metered.calls;
    metered.stop();
    const writes = calls.filter((call) => call.write > 0);
    opening.push(
      `| ${label} | ${calls.length} | ${sum(calls, 'read')} | ${writes.map((call) => `${call.command} ${call.write}`).join(', ') || 'none'} | ${sum(calls, 'write')} | $${(sum(calls, 'read') * PRICES.readUnit + sum(calls, 'write') * PRICES.writeUnit).toFixed(2)} |`,
    );
  }

  // Growth: the read store keeps STORE_OPEN open cases; the tenant grows around it in 100 other stores.
  const template = (await caseStore.find(f.tenantId, id))!;
  const store = 900_000 + Math.floor(Math.random() * 1000);
  const { client, tableName } = db();
  const write = async (records: CaseRecord[]) => {
    const chunks = Array.from({ length: Math.ceil(records.length / 25) }, (_, c) => records.slice(c * 25, c * 25 + 25));
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < chunks.length) {
          const chunk = chunks[next++]!;
          let requests = chunk.map((record) => ({ PutRequest: { Item: caseItem(f.tenantId, record) } }));
          while (requests.length) {
            const out = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
            requests = (out.UnprocessedItems?.[tableName] ?? []) as typeof requests;
          }
        }
      }),
    );
  };
  const aCase = (n: number, storeId: number, status: CaseRecord['status']): CaseRecord => ({
    ...template,
    id: 10_000_000_000 + n,
    storeId,
    status,
    dueAt: new Date(Date.parse(template.dueAt) + n * 1000).toISOString(),
  });
  await write(Array.from({ length: STORE_OPEN }, (_, n) => aCase(n, store, 'open')));
  let size = STORE_OPEN;
  const growth: string[] = [];
  for (const target of sizes) {
    // Two in three of the rest are closed, a third open: the other stores' lists and the shards grow with them.
    await write(
      Array.from({ length: Math.max(0, target - size) }, (_, i) => aCase(size + i, 1000 + ((size + i) % 100), i % 3 ? 'resolved' : 'open')),
    );
    size = Math.max(size, target);
    const ask = { path: '/public/cases', key: f.key, headers: { 'x-service-user-token': f.userToken }, query: { store, status: 'open' } };
    await api(ask);
    const metered = meter(db().client);
    const res = await metered.run(() => api(ask));
    const queries = metered.calls.filter((call) => call.command === 'Query');
    metered.stop();
    growth.push(
      `| ${target.toLocaleString('en-US')} | ${(res.body as { data: unknown[] }).data.length} | ${queries.length} | ${sum(queries, 'read')} |`,
    );
  }
  return [
    "### Cases: opening one, its alert, and a store's open cases at any size of the tenant (DynamoDB Local)",
    '',
    '| work | round trips | read units | writes (units each) | write units | $ per million |',
    '|---|---:|---:|---|---:|---:|',
    ...opening,
    '',
    'Opening writes the case item with its two index entries (gsi12, gsi13) in one conditional PutItem, and claims the alert with one UpdateItem of the item alone (the claim is not projected): the SES e-mail ($0.10 per 1,000) and the case.opened event (one SQS message per endpoint) are beside these. A redelivery reads the case and puts its deadline timer again (the same item, 1 write unit), so that an opener that crashed before scheduling it never loses the deadline.',
    '',
    `| cases in the tenant | open cases listed (store of ${STORE_OPEN}) | Queries | read units |`,
    '|---:|---:|---:|---:|',
    ...growth,
  ].join('\n');
}
