import { beforeAll, describe, expect, it } from 'vitest';
import { inProcess } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

const api = inProcess();
let tenant: TestTenant;
let other: TestTenant;
let storeA: number;
let storeB: number;

const create = (body: unknown, key = tenant.key) => api({ method: 'POST', path: '/public/employee', key, body });
const ids = (res: { body: { data: { id: number }[] } }) => res.body.data.map((x) => x.id);

beforeAll(async () => {
  [tenant, other] = await Promise.all([newTenant(), newTenant()]);
  storeA = (await api({ method: 'POST', path: '/store', key: tenant.key, body: { trade_name: 'Loja A', store_id: 'SA' } })).body.id;
  storeB = (await api({ method: 'POST', path: '/store', key: tenant.key, body: { trade_name: 'Loja B', store_id: 'SB' } })).body.id;
});

describe('employees', () => {
  it('are created with 200, linked to the main store named by its external code', async () => {
    const res = await create({ name: 'João', email: 'Joao@Example.com', employee_id: 'E-1', store_id: 'SA' });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'João',
      email: 'joao@example.com',
      employee_id: 'E-1',
      store_id: 'SA',
      status: 'active',
      stores: [storeA],
      groups: [],
    });
    expect((await api({ path: `/employee/${res.body.id}`, key: tenant.key })).body).toEqual(res.body);
    const stores = await api({ path: `/public/employee/${res.body.id}/stores`, key: tenant.key });
    expect(stores.body.data.map((s: { trade_name: string }) => s.trade_name)).toEqual(['Loja A']);
  });

  it('refuse a create with 400 for invalid parameters, an unknown store code or a duplicate employee_id', async () => {
    expect((await create({ email: 'x@example.com' })).status).toBe(400);
    const unknownStore = await create({ name: 'Ana', store_id: 'NOPE' });
    expect(unknownStore.status).toBe(400);
    expect(unknownStore.body.errors).toEqual([{ path: 'store_id', message: 'is not the store_id of any store' }]);
    await create({ name: 'First', employee_id: 'DUP' });
    const duplicate = await create({ name: 'Second', employee_id: 'DUP' });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.type).toBe('/problems/conflict');
    expect((await create({ name: 'Num', employee_id: 7 })).body.errors[0].message).toMatch(/must be a string/);
  });

  it('answer 200 and 404 on read, and 422 for an invalid edit', async () => {
    const { body: employee } = await create({ name: 'Rui' });
    expect((await api({ path: '/public/employee/999999', key: tenant.key })).status).toBe(404);
    const invalid = await api({ method: 'PUT', path: `/public/employee/${employee.id}`, key: tenant.key, body: { name: '' } });
    expect(invalid.status).toBe(422);
    const unknownField = await api({ method: 'PUT', path: `/public/employee/${employee.id}`, key: tenant.key, body: { stores: [1] } });
    expect(unknownField.status).toBe(422);
    const edited = await api({
      method: 'PUT',
      path: `/public/employee/${employee.id}`,
      key: tenant.key,
      body: { name: 'Rui Costa', email: 'rui@example.com' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Rui Costa', email: 'rui@example.com' });
    expect((await api({ method: 'PUT', path: '/public/employee/999999', key: tenant.key, body: { name: 'X' } })).status).toBe(404);
  });

  it('are deactivated by DELETE (200), stay readable, and an unknown id answers 422', async () => {
    const { body: employee } = await create({ name: 'Leaving' });
    const res = await api({ method: 'DELETE', path: `/employee/${employee.id}`, key: tenant.key });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('inactive');
    expect((await api({ path: `/employee/${employee.id}`, key: tenant.key })).body.status).toBe('inactive');
    const unknown = await api({ method: 'DELETE', path: '/employee/999999', key: tenant.key });
    expect(unknown.status).toBe(422);
    expect(unknown.headers['content-type']).toBe('application/problem+json');
  });

  it('are invisible to another tenant, which can change none of them', async () => {
    const { body: employee } = await create({ name: 'Private' });
    expect((await api({ path: `/employee/${employee.id}`, key: other.key })).status).toBe(404);
    expect((await api({ method: 'PUT', path: `/employee/${employee.id}`, key: other.key, body: { name: 'X' } })).status).toBe(404);
    expect((await api({ method: 'DELETE', path: `/employee/${employee.id}`, key: other.key })).status).toBe(422);
    expect((await api({ path: `/employee/${employee.id}/stores`, key: other.key })).status).toBe(404);
    const put = await api({
      method: 'PUT',
      path: `/employee/${employee.id}/stores`,
      key: other.key,
      body: { stores: [1] },
      headers: { 'x-service-user-token': other.userToken },
    });
    expect(put.status).toBe(404);
    expect((await api({ path: `/employee/${employee.id}`, key: tenant.key })).body).toMatchObject({ name: 'Private', status: 'active' });
  });
});

describe('employee lists', () => {
  let list: (query: Record<string, string | number>) => ReturnType<typeof api>;
  let team: number[];

  beforeAll(async () => {
    const t = await newTenant();
    list = (query) => api({ path: '/public/employee', key: t.key, query });
    const sa = (await api({ method: 'POST', path: '/store', key: t.key, body: { trade_name: 'A', store_id: 'LA' } })).body.id;
    team = [];
    for (const [name, email, store] of [
      ['Carla', 'carla@x.com', 'LA'],
      ['Carlos', 'carlos@x.com', undefined],
      ['Célia', 'celia@x.com', 'LA'],
      ['Dora', 'dora@x.com', undefined],
    ] as const) {
      team.push(
        (await api({ method: 'POST', path: '/employee', key: t.key, body: { name, email, ...(store ? { store_id: store } : {}) } })).body
          .id,
      );
    }
    await api({ method: 'DELETE', path: `/employee/${team[3]}`, key: t.key });
    expect(sa).toBeGreaterThan(1);
  });

  it.each([
    [{}, () => [1, ...team]],
    [{ name: 'car' }, () => [team[0], team[1]]],
    [{ name: 'CE' }, () => [team[2]]],
    [{ email: 'carlos@x.com' }, () => [team[1]]],
    [{ id: 0 }, () => []],
    [{ external_store_id: 'LA' }, () => [team[0], team[2]]],
    [{ external_store_id: 'LA', name: 'cel' }, () => [team[2]]],
    [{ external_store_id: 'NOPE' }, () => []],
    [{ store: 1 }, () => [1]],
    [{ status: 'inactive' }, () => [team[3]]],
  ])('filters %o', async (query, expected) => {
    const q = 'id' in query ? { id: team[1]! } : query;
    const res = await list(q as Record<string, string | number>);
    expect(res.status).toBe(200);
    expect(ids(res).sort((a, b) => a - b)).toEqual('id' in query ? [team[1]] : expected());
  });

  it('pages by cursor', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await list({ limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...ids(res));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([1, ...team]);
  });

  it('answers 422 for invalid parameters', async () => {
    expect((await list({ store: 'abc' })).status).toBe(422);
    expect((await list({ nickname: 'x' })).status).toBe(422);
  });
});

describe('employee relations', () => {
  const token = (t: string) => ({ 'x-service-user-token': t });

  it('replace the stores with internal ids and answer the updated list of stores', async () => {
    const { body: employee } = await create({ name: 'Linked' });
    const res = await api({
      method: 'PUT',
      path: `/public/employee/${employee.id}/stores`,
      key: tenant.key,
      body: { stores: [storeA, storeB] },
      headers: token(tenant.userToken),
    });

    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { id: number }) => s.id)).toEqual([storeA, storeB]);
    expect((await api({ path: `/employee/${employee.id}`, key: tenant.key })).body.stores).toEqual([storeA, storeB]);
    const byStore = await api({ path: '/employee', key: tenant.key, query: { store: storeB } });
    expect(ids(byStore)).toContain(employee.id);

    await api({
      method: 'PUT',
      path: `/employee/${employee.id}/stores`,
      key: tenant.key,
      body: { stores: [storeA] },
      headers: token(tenant.userToken),
    });
    expect(ids(await api({ path: '/employee', key: tenant.key, query: { store: storeB } }))).not.toContain(employee.id);
  });

  it('answer 401 and change nothing when the token does not cover a store added or removed, or is missing', async () => {
    const { body: employee } = await create({ name: 'Guarded', store_id: 'SA' });
    const limited = await api({
      method: 'PUT',
      path: `/employee/${employee.id}/stores`,
      key: tenant.key,
      body: { stores: [1] },
      headers: token(tenant.limitedToken),
    });
    expect(limited.status).toBe(401);
    expect(limited.body.detail).toMatch(new RegExp(`stores ${storeA}\\b`));
    const missing = await api({ method: 'PUT', path: `/employee/${employee.id}/stores`, key: tenant.key, body: { stores: [] } });
    expect(missing.status).toBe(401);
    expect((await api({ path: `/employee/${employee.id}`, key: tenant.key })).body.stores).toEqual([storeA]);
  });

  it('let a limited token change what it covers', async () => {
    const { body: employee } = await create({ name: 'Within scope' });
    const res = await api({
      method: 'PUT',
      path: `/employee/${employee.id}/stores`,
      key: tenant.key,
      body: { stores: [1] },
      headers: token(tenant.limitedToken),
    });
    expect(res.status).toBe(200);
    const groups = await api({
      method: 'PUT',
      path: `/employee/${employee.id}/groups`,
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.limitedToken },
      body: { groups: [1] },
    });
    expect(groups.status).toBe(200);
    expect(groups.body.data).toEqual([{ id: 1, name: 'Gerentes' }]);
    const denied = await api({
      method: 'PUT',
      path: `/employee/${employee.id}/groups`,
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.limitedToken },
      body: { groups: [1, 2] },
    });
    expect(denied.status).toBe(401);
    expect((await api({ path: `/employee/${employee.id}/groups`, key: tenant.key })).body.data).toEqual([{ id: 1, name: 'Gerentes' }]);
  });

  it('answer 404 for an unknown employee, store or group, and change nothing', async () => {
    const { body: employee } = await create({ name: 'Careful', store_id: 'SB' });
    const full = token(tenant.userToken);
    expect(
      (await api({ method: 'PUT', path: '/employee/999999/stores', key: tenant.key, body: { stores: [1] }, headers: full })).status,
    ).toBe(404);
    expect(
      (
        await api({
          method: 'PUT',
          path: `/employee/${employee.id}/stores`,
          key: tenant.key,
          body: { stores: [storeA, 424242] },
          headers: full,
        })
      ).status,
    ).toBe(404);
    expect(
      (await api({ method: 'PUT', path: `/employee/${employee.id}/groups`, key: tenant.key, body: { groups: [9] }, headers: full })).status,
    ).toBe(404);
    expect((await api({ path: '/employee/999999/groups', key: tenant.key })).status).toBe(404);
    expect((await api({ path: `/employee/${employee.id}`, key: tenant.key })).body).toMatchObject({ stores: [storeB], groups: [] });
  });

  it('carry internal ids only', async () => {
    const res = await api({
      method: 'PUT',
      path: '/employee/1/stores',
      key: tenant.key,
      body: { stores: ['SA'] },
      headers: token(tenant.userToken),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/internal id/);
    const repeated = await api({
      method: 'PUT',
      path: '/employee/1/stores',
      key: tenant.key,
      body: { stores: [1, 1] },
      headers: token(tenant.userToken),
    });
    expect(repeated.status).toBe(400);
  });

  it('never leave a mix when edits race: the result is one of the edits, links and list alike', async () => {
    const { body: employee } = await create({ name: 'Contended' });
    const wanted = [[storeA], [storeB], [storeA, storeB], [1], []];
    const results = await Promise.all(
      wanted.map((stores) =>
        api({
          method: 'PUT',
          path: `/employee/${employee.id}/stores`,
          key: tenant.key,
          body: { stores },
          headers: token(tenant.userToken),
        }),
      ),
    );
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const final = (await api({ path: `/employee/${employee.id}`, key: tenant.key })).body.stores as number[];
    expect(wanted.map((w) => JSON.stringify(w))).toContain(JSON.stringify(final));
    for (const store of [1, storeA, storeB]) {
      const linked = ids(await api({ path: '/employee', key: tenant.key, query: { store, limit: 100 } })).includes(employee.id);
      expect(linked, `store ${store}`).toBe(final.includes(store));
    }
  });
});
