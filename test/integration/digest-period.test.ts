import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { caseStore } from '../../shared/adapters/case-repository.js';
import { counterUpdates } from '../../shared/adapters/result-counters.js';
import { putDelivery } from '../../shared/adapters/tenant-repository.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { addDays } from '../../shared/dates.js';
import { localDay } from '../../shared/digest/figures.js';
import { answerTally, merge, sentTally } from '../../shared/results/tally.js';
import { overHttp } from '../support/api.js';
import { until } from '../support/mailbox.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * The digest a regional manager acts on (issue 60 §3), over HTTP through the local stack: answers today at three stores
 * of two regions; GET /public/digest?from=<today>&to=<today> with the manager's token names their region's stores by
 * name and no other, opens with what to do first (a store and a case), and gives each case its store, age, owner and
 * short number; a day without answers says so and lists the last weeks that had some; a period of more than 31 days,
 * or backwards, is a 422 naming the field.
 */
const api = overHttp('public');
const chatbot = overHttp('chatbot');
const ZONE = 'America/Sao_Paulo';
const STORES = ['Loja Farol Sul', 'Loja Ponte Sul', 'Loja Serra Sudeste'] as const;
let tenant: TestTenant;
let ids: number[];
let regional: string;
const token = `sut_regional_${Date.now()}`;
const today = localDay(new Date(), ZONE);

async function answered(day: string, storeId: number, scores: number[]) {
  for (const [i, score] of scores.entries()) {
    const where = { journeyId: 1, storeId, employeeId: 1 };
    const deltas = merge([
      ...sentTally(where, new Date(`${day}T12:00:00Z`)),
      ...answerTally(where, { indicator: 'nps', score, items: [], answeredAt: `${day}T13:00:00Z`, sentOn: day }),
    ]);
    await db().client.send(
      new TransactWriteCommand({ TransactItems: counterUpdates(tenant.tenantId, { journeyId: 1, deltas }, 3000 + i) }),
    );
  }
}

const digest = (query: string) => api({ path: `/public/digest?${query}`, key: tenant.key, headers: { 'x-service-user-token': token } });

beforeAll(async () => {
  tenant = await newTenant();
  ids = [];
  for (const name of STORES) {
    const created = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: name } });
    expect(created.status, created.text).toBe(201);
    ids.push(created.body.id as number);
  }
  const read = await api({ path: '/public/admin/config', key: tenant.adminKey });
  const put = await api({
    method: 'PUT',
    path: '/public/admin/config',
    key: tenant.adminKey,
    headers: { 'if-match': read.headers.etag! },
    body: {
      ...read.body,
      regions: [
        { id: 1, name: 'Sul', stores: [ids[0], ids[1]] },
        { id: 2, name: 'Sudeste', stores: [ids[2]] },
      ],
    },
  });
  expect(put.status, put.text).toBe(200);
  regional = `regional-${tenant.tenantId}@example.com`;
  await tenantService.createUser(tenant.tenantId, regional, { stores: [], groups: [], regions: [1] }, token);
  await putDelivery(tenant.tenantId, { quietHours: null, email: { from: 'pesquisa@test.local' } });
  await answered(today, ids[0]!, [2, 3, 9]);
  await answered(today, ids[1]!, [10, 9, 10]);
  await answered(today, ids[2]!, [1, 1, 1]);
  await answered(addDays(today, -14), ids[0]!, [8, 9]);
}, 60_000);

describe("a regional manager's digest of any period", () => {
  it("names the region's stores, what to do first and each case's store, age, owner and number, for today", async () => {
    // A detractor at the first store opens a case; past its deadline, it is overdue.
    const id = await registerSale(api, tenant.key, { store_id: ids[0]!, phone: '11987654321' });
    const body = { transactionId: id, attemptId: 1, journey: 'loja', score: 2, comment: 'Demorou muito', classes: [] };
    expect((await chatbot({ method: 'POST', path: '/survey', key: tenant.chatbotKey, body })).status).toBe(201);
    const opened = await until(async () => caseStore.find(tenant.tenantId, id), `the case of transaction ${id}`);
    expect(opened.number).toBe(1);
    const late = { ...opened, overdue: true, overdueAt: new Date().toISOString(), version: opened.version + 1 };
    expect(await caseStore.replace(tenant.tenantId, late, [])).toBe(true);

    const answer = await digest(`from=${today}&to=${today}`);

    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ period: 'range', from: today, to: today, answered: true });
    const loja = answer.body.journeys.find((j: { journey: { slug: string } }) => j.journey.slug === 'loja');
    const names = loja.stores.map((s: { name: string }) => s.name);
    expect(names.sort()).toEqual([STORES[0], STORES[1]]);
    expect(JSON.stringify(answer.body)).not.toContain(STORES[2]);
    // The region first, by name.
    expect(loja.regions.map((r: { name: string }) => r.name)).toEqual(['Sul']);
    // What to do first: a store and its case (no complaint rose: no comment was analysed).
    expect(answer.body.first).toMatchObject({ kind: 'case', case: { id, store: STORES[0] } });
    const [late1] = answer.body.cases.overdue;
    expect(late1).toMatchObject({ id, number: 1, store: STORES[0], age_days: 0, owner: regional });
    for (const c of [...answer.body.cases.overdue, ...answer.body.cases.open]) {
      expect(STORES).toContain(c.store);
      expect(c.age_days).toBeGreaterThanOrEqual(0);
      expect(c).toHaveProperty('owner');
    }
  }, 90_000);

  it('says a day without answers had none, and lists the last weeks that had some', async () => {
    const quiet = addDays(today, -7);
    const answer = await digest(`from=${quiet}&to=${quiet}`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.answered).toBe(false);
    expect(answer.body.last_weeks.length).toBeGreaterThan(0);
    expect(answer.body.last_weeks[0].answers).toBe(2);
    expect(answer.body.last_weeks[0].from <= addDays(today, -14) && addDays(today, -14) <= answer.body.last_weeks[0].to).toBe(true);
  }, 60_000);

  it('refuses more than 31 days, a period backwards, or one end alone, naming the field', async () => {
    const long = await digest(`from=${addDays(today, -31)}&to=${today}`);
    expect(long.status).toBe(422);
    expect(JSON.stringify(long.body)).toContain('"to"');
    const backwards = await digest(`from=${today}&to=${addDays(today, -1)}`);
    expect(backwards.status).toBe(422);
    const alone = await digest(`from=${today}`);
    expect(alone.status).toBe(422);
    expect(JSON.stringify(alone.body)).toContain('"to"');
  }, 60_000);
});
