import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { inProcess } from '../support/api.js';
import { usePrivateQueue } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { requestIdFor, v2Payload } from '../support/transactions.js';

const api = inProcess();
let tenant: TestTenant;
// Survey dispatches of this file go to a queue of its own.
usePrivateQueue('surveyDispatch');

beforeAll(async () => {
  tenant = await newTenant();
});

describe('POST /v2/transactions', () => {
  // This file's own transaction queue, so the local stack's consumer does not take the messages first.
  const transactions = usePrivateQueue('transactions');

  it('answers 201 with the sent object unchanged and an x-request-id, and queues the validated body', async () => {
    const payload = v2Payload({ customer: { externalId: 'Q-1', email: 'MiXeD@Example.com', phone: '(11) 98765-4321' } });
    const res = await api({ method: 'POST', path: '/v2/transactions', key: tenant.key, body: payload });

    expect(res.status).toBe(201);
    expect(res.body).toEqual(payload);
    expect(res.headers['x-request-id']).toMatch(/^tx-/);
    const messages = await transactions.drain();
    expect(messages).toHaveLength(1);
    const customer = { ...(payload.customer as object), email: 'mixed@example.com', phone: '+5511987654321' };
    expect(messages[0]).toMatchObject({ version: 1, tenantId: tenant.tenantId, payload: { ...payload, customer } });
    expect(res.headers['x-request-id']).toBe(requestIdFor(tenant.tenantId, (messages[0] as { requestId: string }).requestId));
  });

  it('answers 400 listing every problem, and queues nothing', async () => {
    const res = await api({
      method: 'POST',
      path: '/v2/transactions',
      key: tenant.key,
      body: { store: {}, employee: { id: 'one' }, customer: { externalId: 42 }, transaction: { amount: 'x' }, ratingItems: [{ score: 3 }] },
    });

    expect(res.status).toBe(400);
    const paths = res.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['store', 'employee.id', 'customer.externalId', 'transaction.amount', 'ratingItems.0']));
    expect(await transactions.drain()).toHaveLength(0);
  });

  it('gives the same x-request-id to a resent external id, and a fresh one without', async () => {
    const payload = v2Payload();
    const [a, b] = await Promise.all([1, 2].map(() => api({ method: 'POST', path: '/v2/transactions', key: tenant.key, body: payload })));
    expect(a!.headers['x-request-id']).toBe(b!.headers['x-request-id']);
    const anonymous = { ...payload, transaction: { journeySlug: 'loja' } };
    const [c, d] = await Promise.all([1, 2].map(() => api({ method: 'POST', path: '/v2/transactions', key: tenant.key, body: anonymous })));
    expect(c!.headers['x-request-id']).not.toBe(d!.headers['x-request-id']);
  });

  it('reports a request it issued and has not seen yet as pending, an id it never issued as 404, and refuses a malformed id', async () => {
    const pending = await api({ path: `/v2/transactions/requests/${requestIdFor(tenant.tenantId, randomUUID())}`, key: tenant.key });
    expect(pending.body).toMatchObject({ status: 'pending', transactionId: null, errors: [], warnings: [] });
    expect((await api({ path: `/v2/transactions/requests/${randomUUID()}`, key: tenant.key })).status).toBe(404);
    expect((await api({ path: '/v2/transactions/requests/not-an-id', key: tenant.key })).status).toBe(404);
    expect((await api({ path: `/v2/transactions/requests/${'x'.repeat(101)}`, key: tenant.key })).status).toBe(400);
  });
});

describe('POST /public/transaction (legacy)', () => {
  const post = (body: unknown, path = '/public/transaction') => api({ method: 'POST', path, key: tenant.key, body });

  it('creates synchronously and answers 201 with the transaction, on all four paths', async () => {
    for (const path of [
      '/public/transaction',
      '/public/transaction/integration',
      '/api/v1/transaction',
      '/api/v1/transaction/integration',
    ]) {
      const res = await post(
        {
          store_id: 1,
          employee_id: 1,
          customer_integration: `L-${path}`,
          name: 'Legado',
          phone: '11955554444',
          journey: 'loja',
          transaction_id: `LT-${path}`,
          amount: 10.5,
          register_date: '2026-11-20',
          param_canal: 'loja',
          rating_items: [{ class_id: 1, score: 5 }],
        },
        path,
      );
      expect(res.status, path).toBe(201);
      expect(res.body).toMatchObject({
        transaction_id: `LT-${path}`,
        store_id: 1,
        journey_id: 1,
        amount: 10.5,
        params: { canal: 'loja' },
        rating_items: [{ class_id: 1, score: 5 }],
        survey: { status: 'scheduled', channel: 'whatsapp' },
      });
      expect((await api({ path: `/public/transaction/${res.body.id}`, key: tenant.key })).body).toEqual(res.body);
    }
  });

  it.each([
    ['an unknown journey', { journey: 'nope' }, [{ path: 'journey', message: 'journey "nope" does not exist' }]],
    [
      'a class not available for the journey (create rule 2)',
      { rating_items: [{ class_id: 4, score: 5 }] },
      [{ path: 'rating_items[0].class_id', message: 'class 4 is not available for journey loja' }],
    ],
    [
      'a score the class does not support (create rule 3)',
      { rating_items: [{ class: 'Atendimento', score: 0 }] },
      [{ path: 'rating_items[0].score', message: '0 is not a csat score (1-5)' }],
    ],
    [
      'an unknown customer id',
      { customer_id: 999999, customer_integration: undefined },
      [{ path: 'customer_id', message: 'customer 999999 does not exist' }],
    ],
  ])('answers 422 for %s, naming the legacy field', async (_, overrides, errors) => {
    const res = await post({ store_id: 1, employee_id: 1, customer_integration: 'L-422', journey: 'loja', ...overrides });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual(errors);
  });

  it('answers 422 for an inactive store (create rule 6) and for invalid or missing fields', async () => {
    const { body: store } = await api({ method: 'POST', path: '/store', key: tenant.key, body: { trade_name: 'Inativa' } });
    await api({ method: 'DELETE', path: `/store/${store.id}`, key: tenant.key });
    const inactive = await post({ store_id: store.id, employee_id: 1, customer_integration: 'L-7', journey_id: 1 });
    expect(inactive.status).toBe(422);
    expect(inactive.body.errors).toEqual([{ path: 'store_id', message: `store ${store.id} is inactive` }]);

    const missing = await post({ employee_id: 1, journey: 'loja' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.map((e: { message: string }) => e.message)).toEqual([
      'needs one of store_id or store_integration',
      'needs one of customer_id or customer_integration',
    ]);
    const unknown = await post({
      store_id: 1,
      employee_id: 1,
      customer_integration: 'x',
      journey: 'loja',
      colour: 'red',
      param_ok: { nested: true },
    });
    expect(unknown.body.errors.map((e: { path: string }) => e.path)).toEqual(['colour', 'param_ok']);
    expect((await post('{bad json')).status).toBe(422);
  });

  it('keeps the rating when the journey supports it, and nulls it when not (seed: rating.score)', async () => {
    const kept = await post({ store_id: 1, employee_id: 1, customer_integration: 'L-R', journey: 'loja', score: 10, comment: 'top' });
    expect(kept.body).toMatchObject({ rating: { score: 10, comment: 'top' }, survey: { status: 'not_sent', reason: 'already_rated' } });
    const nulled = await post({ store_id: 1, employee_id: 1, customer_integration: 'L-R', journey: 'ecommerce', score: 9 });
    expect(nulled.status).toBe(201);
    expect(nulled.body.rating).toBeNull();
    expect(nulled.body.warnings).toEqual([{ path: 'score', message: '9 is not a csat score (1-5); the transaction has no rating' }]);
  });

  it('stores a resent transaction_id once', async () => {
    const body = { store_id: 1, employee_id: 1, customer_integration: 'L-DUP', journey: 'loja', transaction_id: 'LEG-DUP-1' };
    const [a, b] = await Promise.all([post(body), post(body)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).toBe(b.body.id);
  });
});

describe('GET /public/transaction/{id}', () => {
  it("answers 404 for an unknown id and for another tenant's transaction", async () => {
    const { body } = await api({
      method: 'POST',
      path: '/public/transaction',
      key: tenant.key,
      body: { store_id: 1, employee_id: 1, customer_integration: 'G-1', journey: 'loja' },
    });
    const other = await newTenant();
    expect((await api({ path: `/transaction/${body.id}`, key: other.key })).status).toBe(404);
    expect((await api({ path: '/transaction/987654321', key: tenant.key })).status).toBe(404);
  });
});

describe('concurrent sales of one new customer', () => {
  it('all create their transaction for the one customer their client id names, none refused as a duplicate', async () => {
    const clientId = `RACE-${randomUUID()}`;
    const sales = await Promise.all(
      Array.from({ length: 20 }, () =>
        api({
          method: 'POST',
          path: '/public/transaction',
          key: tenant.key,
          body: {
            store_id: 1,
            employee_id: 1,
            journey: 'loja',
            customer_integration: clientId,
            name: 'Corrida',
            email: 'corrida@example.com',
          },
        }),
      ),
    );

    expect(sales.map((sale) => sale.status)).toEqual(sales.map(() => 201));
    expect(new Set(sales.map((sale) => sale.body.customer_id)).size).toBe(1);
  });
});
