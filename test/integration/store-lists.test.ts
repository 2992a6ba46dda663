import { beforeAll, describe, expect, it } from 'vitest';
import { errorPaths, inProcess } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

const api = inProcess();
let tenant: TestTenant;
let other: TestTenant;
const names = ['São Paulo Centro', 'Sao Bernardo', 'SÃO JOSÉ', 'Rio Centro', 'Recife', 'Salvador', 'Santos'];
let ids: number[];

const list = (query: Record<string, string | number> = {}, key = tenant.key) => api({ path: '/public/store', key, query });

beforeAll(async () => {
  [tenant, other] = await Promise.all([newTenant(), newTenant()]);
  ids = [];
  for (const [i, name] of names.entries()) {
    const res = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: name, store_id: `L-${i}` } });
    ids.push(res.body.id);
  }
  await api({ method: 'DELETE', path: `/public/store/${ids[4]}`, key: tenant.key });
  await api({ method: 'DELETE', path: `/public/store/${ids[5]}`, key: tenant.key });
});

describe('GET /public/store', () => {
  it('lists every store of the tenant, in id order, with the paging fields', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { id: number }) => s.id)).toEqual([1, ...ids]);
    expect(res.body).toMatchObject({ page: 1, limit: 20, next_cursor: null });
  });

  it('walks every page with next_cursor, without gaps or repeats', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list({ limit: 3, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.data.map((s: { id: number }) => s.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual([1, ...ids]);
  });

  it('serves page N as the Nth page of limit items', async () => {
    const res = await list({ limit: 3, page: 2 });
    expect(res.body.data.map((s: { id: number }) => s.id)).toEqual(ids.slice(2, 5));
    expect(res.body.page).toBe(2);
    const beyond = await list({ limit: 3, page: 9 });
    expect(beyond.body).toMatchObject({ data: [], next_cursor: null });
  });

  it('filters by status', async () => {
    const inactive = await list({ status: 'inactive' });
    expect(inactive.body.data.map((s: { id: number }) => s.id)).toEqual([ids[4], ids[5]]);
    const active = await list({ status: 'active', limit: 100 });
    expect(active.body.data).toHaveLength(names.length - 2 + 1);
  });

  it('filters by name prefix, ignoring case and accents', async () => {
    const res = await list({ name: 'sao' });
    expect(res.body.data.map((s: { trade_name: string }) => s.trade_name).sort()).toEqual(
      ['Sao Bernardo', 'SÃO JOSÉ', 'São Paulo Centro'].sort(),
    );
    const narrower = await list({ name: 'SÃO J' });
    expect(narrower.body.data.map((s: { trade_name: string }) => s.trade_name)).toEqual(['SÃO JOSÉ']);
  });

  it('combines name and status', async () => {
    const res = await list({ name: 'r', status: 'inactive' });
    expect(res.body.data.map((s: { trade_name: string }) => s.trade_name)).toEqual(['Recife']);
  });

  it('filters by external code (store_id)', async () => {
    const res = await list({ store_id: 'L-3' });
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ id: ids[3], trade_name: 'Rio Centro' });
    expect((await list({ store_id: 'L-3', name: 'xyz' })).body.data).toEqual([]);
    expect((await list({ store_id: 'nope' })).body.data).toEqual([]);
  });

  it("never lists another tenant's stores", async () => {
    const res = await list({ limit: 100 }, other.key);
    expect(res.body.data.map((s: { id: number }) => s.id)).toEqual([1]);
    expect((await list({ store_id: 'L-3' }, other.key)).body.data).toEqual([]);
  });

  it.each([
    [{ limit: 0 }, 'limit'],
    [{ limit: 101 }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ page: 0 }, 'page'],
    [{ page: 'x' }, 'page'],
    [{ status: 'closed' }, 'status'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ sort: 'name' }, 'sort'],
    [{ cursor: 'not-a-cursor' }, 'cursor'],
    [{ limit: 100, page: 102 }, 'page'],
  ])('answers 422 naming the parameter for %o', async (query, path) => {
    const res = await list(query as Record<string, string | number>);
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });

  it("rejects a cursor of another tenant's list, or of other filters", async () => {
    const first = await list({ limit: 2 });
    const foreign = await list({ limit: 2, cursor: first.body.next_cursor }, other.key);
    expect(foreign.status).toBe(422);
    const otherFilter = await list({ limit: 2, status: 'active', cursor: first.body.next_cursor });
    expect(otherFilter.status).toBe(422);
  });

  it('refuses a user token in its URL, which stores do not need: 400 naming token', async () => {
    const res = await list({ token: tenant.userToken, limit: 1 });
    expect(res.status).toBe(400);
    expect(errorPaths(res)).toEqual(['token']);
  });
});
