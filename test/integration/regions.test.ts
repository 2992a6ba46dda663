import { beforeAll, describe, expect, it } from 'vitest';
import { inProcess } from '../support/api.js';
import { usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * docs/regions.md through the API: regions put with the configuration, a report by region that sums its stores (and
 * rolls a child region up to its parent), and a region-scoped user who sees a store placed in their region later.
 */
usePrivateQueue('surveyDispatch');
const api = inProcess('public');
const CONFIG = '/public/admin/config';
const USER = 'x-service-user-token';
let tenant: TestTenant;

const today = () => new Date().toISOString().slice(0, 10);

interface Row {
  key: string;
  label: string;
  responses: number;
  sent: number;
  nps: { promoters: number; detractors: number } | null;
}

async function report(token: string, query: Record<string, string>) {
  const res = await api({
    path: '/public/results',
    key: tenant.key,
    headers: { [USER]: token },
    query: { journey: 'loja', from: today(), to: today(), ...query },
  });
  return { status: res.status, rows: res.body.data as Row[], body: res.body };
}

/** Replaces the configuration's regions (read, changed, put back with its ETag). */
async function putRegions(regions: unknown) {
  const read = await api({ path: CONFIG, key: tenant.adminKey });
  return api({
    method: 'PUT',
    path: CONFIG,
    key: tenant.adminKey,
    body: { ...read.body, regions },
    headers: { 'if-match': read.headers.etag! },
  });
}

const newStore = async (name: string) =>
  (await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: name } })).body.id as number;

beforeAll(async () => {
  tenant = await newTenant();
  expect(await newStore('Loja Dois')).toBe(2);
  expect(await newStore('Loja Três')).toBe(3);
  for (const [store_id, score] of [
    [1, 9],
    [2, 3],
    [2, 10],
    [3, 7],
  ] as const)
    await registerSale(api, tenant.key, { store_id, score });
});

describe('regions', () => {
  it('refuses a store in two regions with a 400 naming the field, and changes nothing', async () => {
    const res = await putRegions([
      { id: 1, name: 'Sul', stores: [1] },
      { id: 2, name: 'Norte', stores: [1] },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'regions.1.stores.0', message: expect.stringContaining('store 1 is already in region 1') }]);
    expect((await api({ path: CONFIG, key: tenant.adminKey })).body.regions).toEqual([]);
  });

  it('a region put through the admin API answers a group_by=region row that sums its stores, a child rolled up to its parent', async () => {
    // Prepare: Sul holds store 1 and its child region RS, which holds stores 2 and 3.
    const put = await putRegions([
      { id: 1, name: 'Sul', stores: [1] },
      { id: 2, name: 'RS', stores: [2, 3], parent: 1 },
    ]);
    expect(put.status, put.text).toBe(200);

    // Act
    const [byRegion, byStore, inRs] = await Promise.all([
      report(tenant.userToken, { group_by: 'region' }),
      report(tenant.userToken, { group_by: 'store' }),
      report(tenant.userToken, { group_by: 'store', region: '2' }),
    ]);

    // Assess
    expect(byRegion.status).toBe(200);
    const sum = (stores: string[]) => {
      const rows = byStore.rows.filter((row) => stores.includes(row.key));
      return {
        responses: rows.reduce((n, row) => n + row.responses, 0),
        promoters: rows.reduce((n, row) => n + row.nps!.promoters, 0),
        detractors: rows.reduce((n, row) => n + row.nps!.detractors, 0),
      };
    };
    const figures = (row: Row | undefined) =>
      row && { responses: row.responses, promoters: row.nps!.promoters, detractors: row.nps!.detractors };
    const region = (key: string) => byRegion.rows.find((row) => row.key === key);
    expect(figures(region('1'))).toEqual(sum(['1', '2', '3']));
    expect(figures(region('2'))).toEqual(sum(['2', '3']));
    expect(figures(region('2'))).toEqual({ responses: 3, promoters: 1, detractors: 1 });
    expect(region('1')!.label).toBe('Sul');
    expect(inRs.rows.map((row) => row.key).sort()).toEqual(['2', '3']);
  });

  it('a user scoped to a region sees a store placed in it afterwards, and no other', async () => {
    // Prepare: a user of region 2 (RS) through the users API, then a new store with an answer, placed in RS.
    const created = await api({
      method: 'POST',
      path: '/public/admin/users',
      key: tenant.adminKey,
      body: { email: `regional-${tenant.tenantId}@example.com`, scope: { stores: [], groups: [], regions: [2] } },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.scope).toEqual({ stores: [], groups: [], regions: [2] });
    const token = created.body.token as string;
    const store = await newStore('Loja Nova');
    await registerSale(api, tenant.key, { store_id: store, score: 10 });
    const before = await report(token, { group_by: 'store' });

    // Act
    expect(
      (
        await putRegions([
          { id: 1, name: 'Sul', stores: [1] },
          { id: 2, name: 'RS', stores: [2, 3, store], parent: 1 },
        ])
      ).status,
    ).toBe(200);
    const after = await report(token, { group_by: 'store' });
    const answers = await api({ path: '/public/answers', key: tenant.key, headers: { [USER]: token } });
    const outside = await report(token, { group_by: 'store', store: '1' });

    // Assess
    expect(before.rows.map((row) => row.key).sort()).toEqual(['2', '3']);
    expect(after.rows.map((row) => row.key).sort()).toEqual(['2', '3', String(store)]);
    expect(answers.status).toBe(200);
    expect([...new Set((answers.body.data as { store: number }[]).map((a) => a.store))].sort()).toEqual([2, 3, store]);
    expect(outside.status).toBe(404);
  });

  it('places a store created or edited with `region` in that region, and answers 422 naming an unknown one', async () => {
    // Prepare: the regions of the tests above (region 1 Sul, region 2 RS under it).
    const config = async () => (await api({ path: CONFIG, key: tenant.adminKey })).body.regions as { id: number; stores: number[] }[];
    const storesOf = async (region: number) => (await config()).find((r) => r.id === region)!.stores;

    // Act
    const unknown = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja Fora', region: 99 } });
    const created = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja Sul', region: 1 } });
    const id = created.body.id as number;
    const inSul = await storesOf(1);
    const moved = await api({ method: 'PUT', path: `/public/store/${id}`, key: tenant.key, body: { region: 2 } });
    const [sulAfter, rsAfter] = [await storesOf(1), await storesOf(2)];
    const badEdit = await api({ method: 'PUT', path: `/public/store/${id}`, key: tenant.key, body: { region: 98 } });
    const out = await api({ method: 'PUT', path: `/public/store/${id}`, key: tenant.key, body: { region: null } });

    // Assess
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ path: 'region', message: 'no region 99 in the configuration' }]);
    expect(created.status, created.text).toBe(201);
    expect(inSul).toContain(id);
    expect(moved.status, moved.text).toBe(202);
    expect(sulAfter).not.toContain(id);
    expect(rsAfter).toContain(id);
    expect(badEdit.status).toBe(422);
    expect(out.status).toBe(202);
    expect((await config()).flatMap((r) => r.stores)).not.toContain(id);
    // The unknown region created no store: the next id went to the store placed in Sul.
    expect((await api({ path: '/public/store', key: tenant.key, query: { name: 'Loja Fora' } })).body.data).toEqual([]);
  });
});
