import { beforeAll, describe, expect, it } from 'vitest';
import { putSettings } from '../../shared/adapters/tenant-repository.js';
import { inProcess } from '../support/api.js';
import { usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';

/**
 * Key drivers through the API (issue 60 §1): rated sales posted to POST /public/transaction count as they are
 * written, and GET /public/results?group_by=driver reads the counters. In store 1 the service item (class 1,
 * Atendimento) drives the score and cleanliness (class 2, Limpeza) is noise; store 2 has the opposite; store 3 too
 * few answers. A token limited to store 1 sees store 1's drivers only.
 */
usePrivateQueue('surveyDispatch');
usePrivateQueue('cases');
const api = inProcess('public');
let tenant: TestTenant;
const today = new Date().toISOString().slice(0, 10);

/** A seeded generator (mulberry32): the same answers on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Rated {
  score: number;
  driver: number;
  noise: number;
}
/** `count` answers whose score follows `driver` (1-5) and not `noise` (1-5). */
function generated(count: number, seed: number): Rated[] {
  const next = random(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return Array.from({ length: count }, () => {
    const [driver, noise] = [1 + Math.floor(next() * 5), 1 + Math.floor(next() * 5)];
    return { score: Math.min(10, Math.max(0, Math.round(2 * driver - 1 + 1.5 * normal()))), driver, noise };
  });
}

/** Posts each answer as a rated sale of `store`: in store 2 the classes swap roles. */
async function post(store: number, answers: Rated[]) {
  for (let i = 0; i < answers.length; i += 8)
    await Promise.all(
      answers.slice(i, i + 8).map((a) => {
        const [one, two] = store === 2 ? [a.noise, a.driver] : [a.driver, a.noise];
        return registerSale(api, tenant.key, {
          store_id: store,
          score: a.score,
          rating_items: [
            { class_id: 1, score: one },
            { class_id: 2, score: two },
          ],
        });
      }),
    );
}

/** R² of the least-squares regression of the score on both items with an intercept, from the raw answers. */
function directR2(list: Rated[]): number {
  const rows = list.map((a) => [1, a.driver, a.noise]);
  const y = list.map((a) => a.score);
  const m = [0, 1, 2].map((i) => [
    ...[0, 1, 2].map((j) => rows.reduce((s, r) => s + r[i]! * r[j]!, 0)),
    rows.reduce((s, r, k) => s + r[i]! * y[k]!, 0),
  ]);
  for (let c = 0; c < 3; c++)
    for (let r = 0; r < 3; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let j = 0; j < 4; j++) m[r]![j]! -= f * m[c]![j]!;
    }
  const b = [0, 1, 2].map((i) => m[i]![3]! / m[i]![i]!);
  const mean = y.reduce((s, v) => s + v, 0) / y.length;
  const sse = rows.reduce((s, r, k) => s + (y[k]! - (b[0]! + b[1]! * r[1]! + b[2]! * r[2]!)) ** 2, 0);
  return 1 - sse / y.reduce((s, v) => s + (v - mean) ** 2, 0);
}

const drivers = (query: Record<string, string | number>, token = tenant.userToken) =>
  api({
    path: '/public/results',
    key: tenant.key,
    headers: { 'x-service-user-token': token },
    query: { journey: 'loja', from: today, to: today, group_by: 'driver', ...query },
  });

const STORE_1 = generated(400, 60);

beforeAll(async () => {
  tenant = await newTenant();
  await putSettings(tenant.tenantId, {
    ...DEMO_SETTINGS,
    // A journey that rates no items beside the main question.
    journeys: [...DEMO_SETTINGS.journeys, { ...DEMO_SETTINGS.journeys[0]!, id: 9, slug: 'sem-itens', classes: [] }],
  });
  for (const name of ['Loja Norte', 'Loja Sul'])
    expect((await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: name } })).status).toBe(201);
  await post(1, STORE_1);
  await post(2, generated(60, 61));
  await post(3, generated(12, 62));
}, 240_000);

describe('GET /public/results?group_by=driver', () => {
  it('puts the item that drives the score first and beyond chance, the noise not, with the R² of a direct regression', async () => {
    const res = await drivers({ store: 1 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ group_by: 'driver', method: 'shapley_r2', answers: 400, min_answers: 30, reason: null });
    const [first, second] = res.body.data;
    expect([first.key, first.label, first.beyond_chance]).toEqual(['1', 'Atendimento', true]);
    expect([second.key, second.beyond_chance]).toEqual(['2', false]);
    expect(first.importance).toBeGreaterThan(second.importance);
    expect(Math.abs(res.body.r2 - directR2(STORE_1))).toBeLessThan(0.05);
    expect(first.performance).toBeCloseTo(STORE_1.reduce((s, a) => s + a.driver, 0) / 400, 2);
    expect(res.body.first_to_improve).toBe('1');
  });

  it("holds a store-limited token's scope: its store's drivers only", async () => {
    const limited = await drivers({}, tenant.limitedToken);
    expect(limited.status, limited.text).toBe(200);
    expect(limited.body).toEqual((await drivers({ store: 1 })).body);
    // The tenant's drivers count every store's answers.
    expect((await drivers({})).body.answers).toBe(472);
    expect((await drivers({ store: 2 }, tenant.limitedToken)).status).toBe(404);
    // Store 2, where the other item drives the score, reads the other way.
    expect((await drivers({ store: 2 })).body.data[0]).toMatchObject({ key: '2', beyond_chance: true });
  });

  it('gives no drivers under the minimum sample, and says why', async () => {
    const res = await drivers({ store: 3 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ answers: 12, min_answers: 30, r2: null, reason: 'too_few_answers', first_to_improve: null, data: [] });
  });

  it('refuses a journey that rates no items, and a source, with a 422 naming them', async () => {
    const none = await drivers({ journey: 'sem-itens' });
    expect(none.status).toBe(422);
    expect(JSON.stringify(none.body)).toContain('rates no items');
    const source = await drivers({ source: 'qr' });
    expect(source.status).toBe(422);
    expect(JSON.stringify(source.body)).toContain('source');
  });
});
