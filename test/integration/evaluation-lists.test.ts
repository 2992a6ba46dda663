import { postLegacySale } from '../support/sales.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { meter } from '../../bench/metering.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { inProcess, errorPaths } from '../support/api.js';
import { usePrivateQueue } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/** GET /public/rating/formbuilder: the evaluations of a date range, within a user token's stores. */
const api = inProcess('public');
usePrivateQueue('surveyDispatch');
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await newTenant();
});

const legacy = (body: Record<string, unknown>) => postLegacySale(api, tenant.key, body);

describe('GET /public/rating/formbuilder', () => {
  it('answers a far-future evaluation range with 422 before reading a single evaluation', async () => {
    // Counted in round trips, not timed: a month partition walked toward the year 9999 would be a Query each.
    const metered = meter(db().client);
    try {
      const res = await api({
        path: '/public/rating/formbuilder',
        key: tenant.key,
        headers: { 'x-service-user-token': tenant.userToken },
        query: { start_date: '9999-12-01', end_date: '9999-12-02' },
      });
      expect(res.status).toBe(422);
      expect(errorPaths(res)).toContain('start_date');
      expect(metered.calls.filter((call) => call.command === 'Query')).toEqual([]);
    } finally {
      metered.stop();
    }
  });

  it('lists only the evaluations of its stores to a limited user token', async () => {
    const store = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Outra loja' } });
    const mine = await legacy({ score: 9, customer_integration: `SC-1-${Date.now()}` });
    const theirs = await legacy({ store_id: store.body.id, score: 8, customer_integration: `SC-2-${Date.now()}` });
    const today = new Date().toISOString().slice(0, 10);
    const list = async (token: string) =>
      (
        await api({
          path: '/public/rating/formbuilder',
          key: tenant.key,
          headers: { 'x-service-user-token': token },
          query: { start_date: today, end_date: today, limit: 100 },
        })
      ).body.data.map((e: { id: number }) => e.id);
    const full = await list(tenant.userToken);
    expect(full).toEqual(expect.arrayContaining([mine.body.id, theirs.body.id]));
    const limited = await list(tenant.limitedToken);
    expect(limited).toContain(mine.body.id);
    expect(limited).not.toContain(theirs.body.id);
  });
});
