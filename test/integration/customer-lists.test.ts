import { beforeAll, describe, expect, it } from 'vitest';
import { inProcess } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

const api = inProcess();
let tenant: TestTenant;
let ids: number[];
const people = [
  { name: 'Maria Silva', email: 'maria@example.com', phone: '11911110001', cpf: '11111111111', client_id: 'M-1' },
  { name: 'Márcia Lima', email: 'marcia@example.com', phone: '11911110002', cpf: '22222222222', client_id: 'M-2', opt_out: true },
  { name: 'MARIO Costa', email: 'shared@example.com', phone: '11911110003', cpf: '33333333333', client_id: 'M-3' },
  { name: 'Paulo', email: 'shared@example.com', phone: '11911110004', cpf: '44444444444', client_id: 'P-1', opt_out: true },
  { name: 'Pedro', email: 'pedro@example.com', phone: '11911110005', cpf: '55555555555', client_id: 'P-2' },
];

const list = (query: Record<string, string | number | boolean>) =>
  api({ path: '/public/customer', key: tenant.key, headers: { 'x-service-user-token': tenant.userToken }, query });
const names = (res: { body: { data: { name: string }[] } }) => res.body.data.map((c) => c.name);

beforeAll(async () => {
  tenant = await newTenant();
  ids = [];
  for (const person of people) ids.push((await api({ method: 'POST', path: '/public/customer', key: tenant.key, body: person })).body.id);
});

describe('GET /public/customer', () => {
  it("requires a user token: 401 without one, with an unknown one, or with another tenant's", async () => {
    const other = await newTenant();
    for (const query of [{}, { token: 'nope' }, { token: other.userToken }] as Record<string, string>[]) {
      const res = await api({ path: '/public/customer', key: tenant.key, query });
      expect(res.status).toBe(401);
      expect(res.body.detail).toMatch(/user token/);
    }
  });

  it('answers 401 to a bad token even when the list itself would fail (the token is checked while the list is read)', async () => {
    const res = await api({
      path: '/public/customer',
      key: tenant.key,
      headers: { 'x-service-user-token': 'nope' },
      query: { cursor: 'not-a-cursor' },
    });
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/user token/);
    expect((await list({ cursor: 'not-a-cursor' })).status).toBe(422);
  });

  it('accepts the token as the x-service-user-token header too', async () => {
    const res = await api({ path: '/public/customer', key: tenant.key, headers: { 'x-service-user-token': tenant.userToken } });
    expect(res.status).toBe(200);
  });

  it('refuses a token limited to some stores with 403 naming why, and shows no customer', async () => {
    const res = await api({ path: '/public/customer', key: tenant.key, headers: { 'x-service-user-token': tenant.limitedToken } });
    expect([res.status, res.body.type]).toEqual([403, '/problems/forbidden']);
    expect(res.body.detail).toBe('The customer list needs a user token that sees every store: customers belong to no one store.');
    expect(res.body.data).toBeUndefined();
  });

  it('lists every customer by id, paging by cursor and by page', async () => {
    const all = await list({ limit: 100 });
    expect(all.body.data.map((c: { id: number }) => c.id)).toEqual(ids);
    expect(all.body.next_cursor).toBeNull();

    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await list({ limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...res.body.data.map((c: { id: number }) => c.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    expect((await list({ limit: 2, page: 2 })).body.data.map((c: { id: number }) => c.id)).toEqual(ids.slice(2, 4));
  });

  it('filters by name prefix, ignoring case and accents', async () => {
    expect(names(await list({ name: 'mar' })).sort()).toEqual(['MARIO Costa', 'Maria Silva', 'Márcia Lima']);
    expect(names(await list({ name: 'MARC' }))).toEqual(['Márcia Lima']);
    expect((await list({ name: 'm' })).status).toBe(422);
  });

  it.each([
    [{ email: 'SHARED@example.com' }, ['MARIO Costa', 'Paulo']],
    [{ phone: '(11) 91111-0005' }, ['Pedro']],
    [{ phone: '+5511911110001' }, ['Maria Silva']],
    [{ cpf: '333.333.333-33' }, ['MARIO Costa']],
    [{ client_id: 'P-1' }, ['Paulo']],
    [{ opt_out: true }, ['Márcia Lima', 'Paulo']],
    [{ opt_out: false, name: 'ma' }, ['MARIO Costa', 'Maria Silva']],
    [{ email: 'shared@example.com', opt_out: true }, ['Paulo']],
    [{ email: 'shared@example.com', name: 'pa' }, ['Paulo']],
    [{ opt_out: false }, ['Maria Silva', 'MARIO Costa', 'Pedro']],
  ])('filters %o', async (query, expected) => {
    const res = await list(query);
    expect(res.status).toBe(200);
    expect(names(res).sort()).toEqual([...expected].sort());
  });

  it.each([
    [{ limit: 500 }, 'limit'],
    [{ opt_out: 'yes' }, 'opt_out'],
    [{ email: 'nope' }, 'email'],
    [{ phone: 'x'.repeat(21) }, 'phone'],
    [{ cpf: '12' }, 'cpf'],
    [{ city: 'Recife' }, 'city'],
    [{ cursor: Buffer.from('{"id":0}').toString('base64url') }, 'cursor'],
  ])('answers 422 for %o', async (query, path) => {
    const res = await list(query as Record<string, string | number>);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
  });
});
