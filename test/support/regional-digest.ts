import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { caseStore } from '../../shared/adapters/case-repository.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { counterUpdates } from '../../shared/adapters/result-counters.js';
import { putDelivery } from '../../shared/adapters/tenant-repository.js';
import type { CaseRecord } from '../../shared/cases/record.js';
import { addDays } from '../../shared/dates.js';
import { localDay } from '../../shared/digest/figures.js';
import type { Locale } from '../../shared/locale.js';
import { answerTally, merge, sentTally } from '../../shared/results/tally.js';
import type { ApiClient } from './api.js';
import { until } from './mailbox.js';
import { registerSale } from './sales.js';
import { newTenant, type TestTenant } from './tenant.js';

/**
 * The tenant a regional manager's digest is read in (issue 60 §3), shared by the digest's API, page, e-mail and chat
 * tests: three stores of two regions (Sul: the first two; Sudeste: the third), answers today at each of them (the
 * first store's mixed, the second's high, the third's low) and two answers two weeks ago at the first, in the tenant's
 * language and São Paulo's zone, its e-mails sent from a sender of its own. The manager (a user of region 1) and the
 * cases are the test's: a case's owner is chosen when it opens, among the users who exist then.
 */
export const REGIONAL_STORES = ['Loja Farol Sul', 'Loja Ponte Sul', 'Loja Serra Sudeste'] as const;
export const REGIONAL_ZONE = 'America/Sao_Paulo';
/** The scope of a manager of region 1 (Sul), as the users API stores it. */
export const SUL = { stores: [], groups: [], regions: [1] };

export interface RegionalTenant {
  tenant: TestTenant;
  /** The three stores' ids, in the order of REGIONAL_STORES. */
  ids: number[];
  /** Today in the tenant's zone, YYYY-MM-DD. */
  today: string;
}

/** A chat endpoint of the tenant's configuration (alerts.chat), as the admin API takes it. */
export interface ChatEndpointBody {
  kind: 'slack' | 'teams';
  url: string;
  events: string[];
  stores?: number[];
}

/** Creates stores of these names (POST /public/store): their ids, in the same order. */
export async function createStores(api: ApiClient, tenant: TestTenant, names: readonly string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const name of names) {
    const created = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: name } });
    expect(created.status, created.text).toBe(201);
    ids.push(created.body.id as number);
  }
  return ids;
}

/** Changes the tenant's configuration as an admin does: read, changed by `change`, put back under the ETag read. */
export async function changeConfig(
  api: ApiClient,
  tenant: TestTenant,
  change: (config: Record<string, unknown>) => Record<string, unknown>,
) {
  const read = await api({ path: '/public/admin/config', key: tenant.adminKey });
  const put = await api({
    method: 'PUT',
    path: '/public/admin/config',
    key: tenant.adminKey,
    headers: { 'if-match': read.headers.etag! },
    body: change(read.body as Record<string, unknown>),
  });
  expect(put.status, put.text).toBe(200);
}

/** Answers of journey loja counted on `day` at `storeId` (the tally the answer path writes), one transaction id each. */
export async function answered(tenantId: number, day: string, storeId: number, scores: number[]) {
  for (const [i, score] of scores.entries()) {
    const where = { journeyId: 1, storeId, employeeId: 1 };
    const deltas = merge([
      ...sentTally(where, new Date(`${day}T12:00:00Z`)),
      ...answerTally(where, { indicator: 'nps', score, items: [], answeredAt: `${day}T13:00:00Z`, sentOn: day }),
    ]);
    await db().client.send(new TransactWriteCommand({ TransactItems: counterUpdates(tenantId, { journeyId: 1, deltas }, 3000 + i) }));
  }
}

/** The tenant, its stores, regions, language (pt-BR unless said), chat endpoints and answers, as described above. */
export async function regionalTenant(
  api: ApiClient,
  { locale = 'pt-BR', chat }: { locale?: Locale; chat?: (ids: number[]) => ChatEndpointBody[] } = {},
): Promise<RegionalTenant> {
  const tenant = await newTenant();
  const ids = await createStores(api, tenant, REGIONAL_STORES);
  await changeConfig(api, tenant, (config) => ({
    ...config,
    locale,
    timeZone: REGIONAL_ZONE,
    regions: [
      { id: 1, name: 'Sul', stores: [ids[0], ids[1]] },
      { id: 2, name: 'Sudeste', stores: [ids[2]] },
    ],
    ...(chat ? { alerts: { ...(config.alerts as object), chat: chat(ids) } } : {}),
  }));
  await putDelivery(tenant.tenantId, { quietHours: null, email: { from: 'pesquisa@test.local' } });
  const today = localDay(new Date(), REGIONAL_ZONE);
  await answered(tenant.tenantId, today, ids[0]!, [2, 3, 9]);
  await answered(tenant.tenantId, today, ids[1]!, [10, 9, 10]);
  await answered(tenant.tenantId, today, ids[2]!, [1, 1, 1]);
  await answered(tenant.tenantId, addDays(today, -14), ids[0]!, [8, 9]);
  return { tenant, ids, today };
}

/**
 * A case at `storeId`, opened the way a customer opens one (a sale, then a detractor's answer through the chatbot: the
 * stack's case queue and opener), and made overdue when asked (as the deadline's timer would, past its due time).
 */
export async function openedCase(
  api: ApiClient,
  chatbot: ApiClient,
  tenant: TestTenant,
  storeId: number,
  { overdue = false, comment = 'Demorou muito' } = {},
): Promise<CaseRecord> {
  const id = await registerSale(api, tenant.key, { store_id: storeId, phone: '11987654321' });
  const body = { transactionId: id, attemptId: 1, journey: 'loja', score: 2, comment, classes: [] };
  const answer = await chatbot({ method: 'POST', path: '/survey', key: tenant.chatbotKey, body });
  expect(answer.status, answer.text).toBe(201);
  const opened = await until(async () => caseStore.find(tenant.tenantId, id), `the case of transaction ${id}`);
  if (!overdue) return opened;
  const late = { ...opened, overdue: true, overdueAt: new Date().toISOString(), version: opened.version + 1 };
  expect(await caseStore.replace(tenant.tenantId, late, [])).toBe(true);
  return late;
}
