import { beforeAll, describe, expect, it } from 'vitest';
import { putDelivery, putSettings } from '../../shared/adapters/tenant-repository.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { MAX_SCOPED_STORES } from '../../shared/results/service.js';
import { deliverSurvey } from '../../shared/surveys/delivery.js';
import type { DispatchMessage } from '../../shared/surveys/dispatch.js';
import { inProcess } from '../support/api.js';
import { deliveryPorts, linkConfig } from '../support/delivery.js';
import { usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';

/**
 * Results counted as answers arrive, read through GET /public/results: a known set of sends and answers (one
 * corrected, one posted twice, one send delivered twice, one rating registered with the sale) gives exactly the
 * figures worked out by hand below.
 */
const dispatch = usePrivateQueue('surveyDispatch');
// The detractors' case messages wait here: the local stack's consumer would open their cases behind the figures below,
// which count none (test/integration/recovery.test.ts counts cases in the results).
usePrivateQueue('cases');
const api = inProcess('public');
const chatbot = inProcess('chatbot');
let tenant: TestTenant;
const today = new Date().toISOString().slice(0, 10);
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const ports = deliveryPorts;
const config = linkConfig;

/** Registers a sale on journey loja for a customer with an e-mail; answers its id and its dispatch message. */
async function sale(store: number, employee: number, score?: number) {
  const id = await registerSale(api, tenant.key, { store_id: store, employee_id: employee, ...(score === undefined ? {} : { score }) });
  const [message] = await dispatch.drain();
  return { id, message: message as DispatchMessage | undefined };
}

const answer = (id: number, score: number, method: 'POST' | 'PUT' = 'POST', classes: unknown[] = []) =>
  chatbot({ method, path: '/survey', key: tenant.chatbotKey, body: { transactionId: id, attemptId: 1, journey: 'loja', score, classes } });

const results = (query: Record<string, string | number>, token = tenant.userToken) =>
  api({
    path: '/public/results',
    key: tenant.key,
    headers: { 'x-service-user-token': token },
    query: { journey: 'loja', from: today, to: today, ...query },
  });

const byKey = (rows: { key: string }[]) => Object.fromEntries(rows.map((row) => [row.key, row]));

beforeAll(async () => {
  tenant = await newTenant();
  await putSettings(tenant.tenantId, {
    ...DEMO_SETTINGS,
    journeys: DEMO_SETTINGS.journeys.map((journey) => (journey.slug === 'loja' ? { ...journey, minSample: 2 } : journey)),
  });
  await putDelivery(tenant.tenantId, { quietHours: null, email: { from: 'pesquisa@loja.example', name: 'Loja Exemplo' } });
  const store = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja Centro' } });
  const employee = await api({ method: 'POST', path: '/public/employee', key: tenant.key, body: { name: 'Caio Souza' } });
  expect([store.body.id, employee.body.id]).toEqual([2, 2]);

  // Store 1: three surveys sent; one answered 10 (class Atendimento 5), one answered 6 then corrected to 8.
  const t1 = await sale(1, 1);
  const t2 = await sale(1, 1);
  const t5 = await sale(1, 2);
  // Store 2: one survey sent (delivered twice) and answered 9 (posted twice); one sale registered with a 3.
  const t3 = await sale(2, 1);
  await sale(2, 2, 3);
  for (const { message } of [t1, t2, t5, t3]) expect(await deliverSurvey({ message: message!, ports, config: config() })).toBe('sent');
  expect(await deliverSurvey({ message: t3.message!, ports, config: config() })).toBe('duplicate');

  expect((await answer(t1.id, 10, 'POST', [{ classId: 1, label: 'Atendimento', type: 'csat', score: 5 }])).status).toBe(201);
  expect((await answer(t2.id, 6)).status).toBe(201);
  expect((await answer(t2.id, 8, 'PUT')).status).toBe(200);
  expect((await answer(t3.id, 9)).status).toBe(201);
  expect((await answer(t3.id, 9)).status).toBe(409);
});

/** The case figures of a group no case was opened on. */
const NO_CASES = {
  opened: 0,
  first_contact_median_minutes: null,
  first_contact_median_range: null,
  resolved: 0,
  resolved_within_deadline: null,
  deadline_decided: 0,
  resolved_in_time: 0,
  on_time_rate: null,
  recovery_answers: 0,
  recovery_rate: null,
};

describe('GET /public/results', () => {
  it('counts each store exactly: answers, sends, response rate, mean and NPS with its interval', async () => {
    const res = await results({ group_by: 'store' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      journey: { id: 1, slug: 'loja', indicator: 'nps' },
      from: today,
      to: today,
      group_by: 'store',
      min_sample: 2,
    });
    const rows = byKey(res.body.data);
    expect(rows['1']).toEqual({
      key: '1',
      label: expect.any(String),
      responses: 2,
      sources: { transaction: 2, qr: 0, kiosk: 0 },
      sent: 3,
      response_rate: 0.667,
      asked: 3,
      asked_response_rate: 0.667,
      mean: 9,
      scale: { min: 0, max: 10 },
      nps: { score: 50, promoters: 1, passives: 1, detractors: 0, ci95: [-48.5, 90.5] },
      low_sample: false,
      // Two answers: too few to rank (under 5); none the day before, so no change.
      interval: { low: -48.5, high: 90.5 },
      rank: null,
      worst_rank: null,
      change: null,
      cases: NO_CASES,
    });
    // The rating registered with the sale is a response but not an answer to a survey sent.
    expect(rows['2']).toEqual({
      key: '2',
      label: 'Loja Centro',
      responses: 2,
      sources: { transaction: 2, qr: 0, kiosk: 0 },
      sent: 1,
      response_rate: 1,
      asked: 1,
      asked_response_rate: 1,
      mean: 6,
      scale: { min: 0, max: 10 },
      nps: { score: 0, promoters: 1, passives: 0, detractors: 1, ci95: [-81.1, 81.1] },
      low_sample: false,
      interval: { low: -81.1, high: 81.1 },
      rank: null,
      worst_rank: null,
      change: null,
      cases: NO_CASES,
    });
    // Unranked, by their answers.
    expect(res.body.data.map((row: { key: string }) => row.key)).toEqual(['1', '2']);
    expect(res.body).toMatchObject({ min_answers_to_rank: 5, compared_with: { from: yesterday, to: yesterday } });
  });

  it('groups by employee, journey, class and period from the same counts', async () => {
    const employees = byKey((await results({ group_by: 'employee' })).body.data);
    expect(employees['1']).toMatchObject({ label: expect.any(String), responses: 3, sent: 3, nps: { score: 66.7, ci95: [-28.2, 93.9] } });
    expect(employees['2']).toMatchObject({ label: 'Caio Souza', responses: 1, sent: 1, mean: 3, low_sample: true });

    const journey = (await results({ group_by: 'journey' })).body.data;
    expect(journey).toEqual([
      expect.objectContaining({
        key: '1',
        responses: 4,
        sent: 4,
        response_rate: 0.75,
        mean: 7.5,
        nps: expect.objectContaining({ score: 25, ci95: [-50.3, 77.4] }),
      }),
    ]);

    const classes = (await results({ group_by: 'class' })).body.data;
    expect(classes).toEqual([
      expect.objectContaining({
        key: '1',
        label: 'Atendimento',
        responses: 1,
        // Each send asked both classes: one of the four surveys rated this one (the survey's own rate is 0.75).
        asked: 4,
        asked_response_rate: 0.25,
        response_rate: 0.75,
        mean: 5,
        scale: { min: 1, max: 5 },
        nps: null,
        low_sample: true,
      }),
      expect.objectContaining({ key: '2', label: 'Limpeza', responses: 0, asked: 4, asked_response_rate: 0, mean: null, nps: null }),
    ]);

    for (const [groupBy, key] of [
      ['day', today],
      ['month', `${today.slice(0, 7)}-01`],
    ]) {
      const rows = (await results({ group_by: groupBy! })).body.data;
      expect(rows, groupBy).toEqual([expect.objectContaining({ key, responses: 4, sent: 4 })]);
    }
    expect((await results({ group_by: 'week' })).body.data).toEqual([expect.objectContaining({ responses: 4 })]);
  });

  it('narrows to a store or an employee', async () => {
    const store1ByEmployee = (await results({ group_by: 'employee', store: 1 })).body.data;
    expect(store1ByEmployee.map((row: { key: string; responses: number; sent: number }) => [row.key, row.responses, row.sent])).toEqual([
      ['1', 2, 2],
      ['2', 0, 1],
    ]);
    const employee2 = (await results({ group_by: 'journey', employee: 2 })).body.data;
    expect(employee2).toEqual([expect.objectContaining({ responses: 1, sent: 1, mean: 3 })]);
  });

  it('shows a limited token its stores only', async () => {
    const stores = (await results({ group_by: 'store' }, tenant.limitedToken)).body.data;
    expect(stores.map((row: { key: string }) => row.key)).toEqual(['1']);
    const journey = (await results({ group_by: 'journey' }, tenant.limitedToken)).body.data;
    expect(journey).toEqual([expect.objectContaining({ responses: 2, sent: 3, nps: expect.objectContaining({ score: 50 }) })]);
    expect((await results({ group_by: 'store', store: 2 }, tenant.limitedToken)).status).toBe(404);
  });

  it('narrows a per-store report to the employee named, with or without a store', async () => {
    const rows = byKey((await results({ group_by: 'store', employee: 2 })).body.data);
    // Employee 2: one survey sent at store 1 (unanswered), one rating of 3 registered at store 2.
    expect(Object.keys(rows).sort()).toEqual(['1', '2']);
    expect(rows['1']).toMatchObject({ responses: 0, sent: 1 });
    expect(rows['2']).toMatchObject({ responses: 1, sent: 0, mean: 3 });
    expect((await results({ group_by: 'store', employee: 2, store: 2 })).body.data).toEqual([
      expect.objectContaining({ key: '2', responses: 1, sent: 0 }),
    ]);
  });

  it("gives a limited token employee figures from its own stores' answers only", async () => {
    // Employee 1, in the token's group 1, answered 10 and 8 at store 1 (in scope) and 9 at store 2 (not).
    const groups = await api({
      method: 'PUT',
      path: '/employee/1/groups',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      body: { groups: [1] },
    });
    expect(groups.status, groups.text).toBe(200);
    const limited = (query: Record<string, string | number>) => results(query, tenant.limitedToken);
    const inScope = { responses: 2, sent: 2, mean: 9 };
    for (const groupBy of ['journey', 'day', 'month', 'week', 'store']) {
      const res = await limited({ group_by: groupBy, employee: 1 });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data, groupBy).toEqual([expect.objectContaining(inScope)]);
    }
    const byClass = (await limited({ group_by: 'class', employee: 1 })).body.data;
    expect(byClass.map((row: { responses: number }) => row.responses)).toEqual([1, 0]);
    const byEmployee = (await limited({ group_by: 'employee' })).body.data;
    expect(byEmployee).toEqual([expect.objectContaining({ key: '1', ...inScope })]);
    expect((await limited({ group_by: 'employee', employee: 1 })).body.data).toEqual([expect.objectContaining({ key: '1', ...inScope })]);
    // The full token still sees the employee everywhere.
    expect((await results({ group_by: 'journey', employee: 1 })).body.data).toEqual([expect.objectContaining({ responses: 3, sent: 3 })]);
  });

  it('asks a token limited to many stores to name one for employee figures', async () => {
    const stores = Array.from({ length: MAX_SCOPED_STORES + 1 }, (_, i) => i + 1);
    const { token } = await tenantService.createUser(tenant.tenantId, { name: 'many-stores', scope: { stores, groups: [1] } });
    const res = await results({ group_by: 'employee' }, token);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { path: 'store', message: `is required for employee figures with a token limited to more than ${MAX_SCOPED_STORES} stores` },
    ]);
    expect((await results({ group_by: 'employee', store: 1 }, token)).status).toBe(200);
    expect((await results({ group_by: 'store' }, token)).status).toBe(200);
  });

  it('bounds the range: both days included, at most 400 days, never backwards', async () => {
    expect((await results({ group_by: 'day', from: dayOffset(1), to: dayOffset(1) })).body.data).toEqual([]);
    expect((await results({ group_by: 'day', from: dayOffset(-399), to: today })).body.data).toHaveLength(1);
    const tooLong = await results({ group_by: 'month', from: dayOffset(-400), to: today });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors).toEqual([{ path: 'to', message: 'at most 400 days after from, both included' }]);
    expect((await results({ group_by: 'day', from: today, to: dayOffset(-1) })).status).toBe(422);
    expect((await results({ group_by: 'store', journey: 'nope' })).status).toBe(422);
    expect((await results({ group_by: 'hour' })).status).toBe(422);
    expect((await results({ group_by: 'store' }, 'not-a-token')).status).toBe(401);
    // The token is checked before the request: a bad token with a bad range is a 401.
    expect((await results({ group_by: 'day', from: today, to: dayOffset(-1) }, 'not-a-token')).status).toBe(401);
  });
});
