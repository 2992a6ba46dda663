import { postLegacySale } from '../support/sales.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { inProcess, errorPaths } from '../support/api.js';
import { consume, usePrivateQueue } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { messageFor, outcomePath, v2Payload } from '../support/transactions.js';

/** What a transaction may carry, on both interfaces: each input that once stalled, lost a sale or answered 500 is now a clear 4xx or outcome. */
const api = inProcess('public');
const transactions = usePrivateQueue('transactions');
usePrivateQueue('surveyDispatch');
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await newTenant();
});

const post = (body: unknown) => api({ method: 'POST', path: '/v2/transactions', key: tenant.key, body });
const legacy = (body: Record<string, unknown>) => postLegacySale(api, tenant.key, body);

/** Registers a v2 payload through the consumer and answers its outcome. */
async function outcomeOf(payload: Record<string, unknown>) {
  const message = messageFor(tenant.tenantId, payload);
  expect((await consume([message])).failed).toEqual([]);
  return (await api({ path: outcomePath(message), key: tenant.key })).body;
}

describe('dates', () => {
  it('refuses register_date and transaction.date that are not ISO 8601 days that exist', async () => {
    for (const register_date of ['2026-02-30', '1', 'March 7', '+275760-09-13', '2026-11-20 10:00']) {
      const res = await legacy({ register_date });
      expect(res.status, register_date).toBe(422);
      expect(errorPaths(res)).toEqual(['register_date']);
    }
    expect((await legacy({ register_date: '2026-11-20T10:00:00-03:00' })).status).toBe(201);
    const res = await post(v2Payload({ transaction: { journeySlug: 'loja', date: '2026-02-30T10:00:00Z' } }));
    expect(res.status).toBe(400);
    expect(errorPaths(res)).toEqual(['transaction.date']);
  });
});

describe('values the table cannot store', () => {
  it('refuses v2 params DynamoDB could not store, naming the field, and queues nothing', async () => {
    await transactions.drain();
    const cases: [unknown, string][] = [
      [{ big: Number('12345678901234567') }, 'transaction.params.big'],
      [{ huge: 1e200 }, 'transaction.params.huge'],
      [{ tiny: 1e-131 }, 'transaction.params.tiny'],
      [{ '': 'x' }, 'transaction.params'],
      [{ constructor: 'x' }, 'transaction.params'],
    ];
    for (const [params, path] of cases) {
      const res = await post(v2Payload({ transaction: { journeySlug: 'loja', params } }));
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(
        errorPaths(res).some((p) => p.startsWith(path)),
        `${JSON.stringify(params)}: ${errorPaths(res)}`,
      ).toBe(true);
    }
    expect(await transactions.drain()).toEqual([]);
    expect((await post(v2Payload({ transaction: { journeySlug: 'loja', params: { n: 9007199254740991, f: 1e-130, z: 0 } } }))).status).toBe(
      201,
    );
  });

  it('refuses the same on the legacy interface with 422, and reserved or empty param_ names', async () => {
    for (const body of [
      { param_big: Number('12345678901234567') },
      { param_huge: 1e200 },
      { param_tiny: 1e-131 },
      { param_: 'x' },
      { param___proto__: 'x' },
      { param_constructor: 'x' },
      { constructor: 'x' },
      { amount: 1e-200 },
    ]) {
      const res = await legacy(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
  });

  it('queues the validated body, so that a body of mostly spaces still fits the queue', async () => {
    await transactions.drain();
    const payload = v2Payload();
    (payload.customer as Record<string, unknown>).name = `Ana${' '.repeat(900_000)}`;
    const res = await post(payload);
    expect(res.status).toBe(201);
    const [message] = (await transactions.drain()) as { payload: { customer: { name: string } } }[];
    expect(message!.payload.customer.name).toBe('Ana');
  });
});

describe('references', () => {
  it('rejects a reference whose id and external code name different entities, naming both', async () => {
    const store = await api({
      method: 'POST',
      path: '/public/store',
      key: tenant.key,
      body: { trade_name: 'Fechada', store_id: `CLOSED-${Date.now()}` },
    });
    await api({ method: 'DELETE', path: `/public/store/${store.body.id}`, key: tenant.key });
    const storeConflict = await outcomeOf(v2Payload({ store: { id: 1, externalId: store.body.store_id } }));
    expect(storeConflict).toMatchObject({
      status: 'rejected',
      errors: [{ path: 'store.externalId', message: expect.stringContaining('store.id 1') }],
    });

    const journeyConflict = await outcomeOf(v2Payload({ transaction: { journeyId: 2, journeySlug: 'loja' } }));
    expect(journeyConflict).toMatchObject({
      status: 'rejected',
      errors: [{ path: 'transaction.journeySlug', message: expect.stringContaining('journeyId 2') }],
    });

    const other = await api({
      method: 'POST',
      path: '/public/customer',
      key: tenant.key,
      body: { name: 'Outra', client_id: `OTHER-${Date.now()}` },
    });
    const mine = await api({
      method: 'POST',
      path: '/public/customer',
      key: tenant.key,
      body: { name: 'Minha', client_id: `MINE-${Date.now()}` },
    });
    const res = await api({
      method: 'POST',
      path: '/public/transaction',
      key: tenant.key,
      body: { store_id: 1, employee_id: 1, customer_id: mine.body.id, customer_integration: other.body.client_id, journey: 'loja' },
    });
    expect(res.status).toBe(422);
    expect(errorPaths(res)).toEqual(['customer_integration']);
  });
});

describe('ratings', () => {
  it('refuses the same class twice, on both interfaces', async () => {
    const rated = await outcomeOf(
      v2Payload({
        ratingItems: [
          { classId: 1, score: 5 },
          { class: 'atendimento', score: 4 },
        ],
      }),
    );
    expect(rated).toMatchObject({
      status: 'rejected',
      errors: [{ path: 'ratingItems[1].class', message: 'class "atendimento" is rated twice' }],
    });
    const res = await legacy({
      rating_items: [
        { class_id: 1, score: 5 },
        { class_id: 1, score: 4 },
      ],
    });
    expect(res.status).toBe(422);
    expect(errorPaths(res)).toEqual(['rating_items[1].class_id']);
  });

  it('keeps the warning of an out-of-scale overall score in the v2 outcome', async () => {
    const outcome = await outcomeOf(v2Payload({ rating: { score: 42 } }));
    expect(outcome).toMatchObject({ status: 'created', warnings: [{ path: 'rating.score', message: expect.stringContaining('42') }] });
  });
});
