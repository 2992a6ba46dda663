import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { keys } from '../../shared/keys.js';
import { inProcess } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

const api = inProcess();
let tenant: TestTenant;
let other: TestTenant;

beforeAll(async () => {
  [tenant, other] = await Promise.all([newTenant(), newTenant()]);
});

const create = (body: unknown, key = tenant.key) => api({ method: 'POST', path: '/public/store', key, body });

describe('POST /public/store', () => {
  it('creates an active store and answers 201 with it', async () => {
    const res = await create({ trade_name: 'Loja Centro', company_name: 'Centro Ltda', store_id: 'CTR-1' });

    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.body).toMatchObject({ store_id: 'CTR-1', trade_name: 'Loja Centro', company_name: 'Centro Ltda', status: 'active' });
    expect(res.body.id).toBeGreaterThan(1);
    expect(res.body.created_at).toBe(res.body.updated_at);
    const read = await api({ path: `/public/store/${res.body.id}`, key: tenant.key });
    expect(read.body).toEqual(res.body);
  });

  it('is reachable without the /public prefix', async () => {
    const res = await api({ method: 'POST', path: '/store', key: tenant.key, body: { trade_name: 'Alias' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ trade_name: 'Alias', store_id: null, company_name: null });
  });

  it('rejects an external code that already exists with 400 and a duplicate problem type', async () => {
    await create({ trade_name: 'First', store_id: 'DUP-1' });
    const res = await create({ trade_name: 'Second', store_id: 'DUP-1' });

    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.body).toMatchObject({ type: '/problems/conflict', status: 400, errors: [{ path: 'store_id' }] });
  });

  it('creates one store when two creates with one external code race', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => create({ trade_name: `Race ${i}`, store_id: 'RACE-1' })));

    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(7);
    const listed = await api({ path: '/public/store', key: tenant.key, query: { store_id: 'RACE-1' } });
    expect(listed.body.data).toHaveLength(1);
  });

  it('lists every problem of an invalid body', async () => {
    const res = await create({ trade_name: '', company_name: 5, store_id: 42, id: 9 });

    expect(res.status).toBe(400);
    const paths = res.body.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(['company_name', 'id', 'store_id', 'trade_name']);
    expect(res.body.errors.find((e: { path: string }) => e.path === 'store_id').message).toMatch(/must be a string/);
    expect(res.body.errors.find((e: { path: string }) => e.path === 'id').message).toBe('is not a known field');
  });

  it('requires trade_name', async () => {
    const res = await create({ company_name: 'No trade name' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'trade_name', message: 'is required' }]);
  });

  it('bounds string lengths', async () => {
    const res = await create({ trade_name: 'x'.repeat(201), store_id: 'y'.repeat(101) });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['store_id', 'trade_name']);
  });

  it.each([
    ['malformed JSON', '{"trade_name": ', {}, 400, '/problems/malformed-json'],
    ['a JSON array', '[1,2]', {}, 400, '/problems/validation'],
    ['JSON null', 'null', {}, 400, '/problems/validation'],
    ['an empty body', '', {}, 400, '/problems/validation'],
    ['a wrong content type', '{"trade_name":"x"}', { 'content-type': 'text/plain' }, 415, '/problems/unsupported-media-type'],
    ['a body over 1 MiB', JSON.stringify({ trade_name: 'x'.repeat(1024 * 1024) }), {}, 413, '/problems/payload-too-large'],
  ])('answers %s with a problem, never a 500', async (_, body, headers, status, type) => {
    const res = await api({ method: 'POST', path: '/public/store', key: tenant.key, body, headers });
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(res.body).toMatchObject({ type, status });
  });

  it('refuses external codes with invisible, control or unpaired characters, and normalises the rest to NFC', async () => {
    for (const code of ['AB\u200bC', 'AB\u202eC', 'A\ud800B', 'A\u0007B', 'A\u2028B']) {
      const res = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja', store_id: code } });
      expect(res.status, JSON.stringify(code)).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['store_id']);
    }
    const decomposed = `CAFE\u0301-${Date.now()}`;
    const created = await api({
      method: 'POST',
      path: '/public/store',
      key: tenant.key,
      body: { trade_name: 'Café', store_id: decomposed },
    });
    expect(created.body.store_id).toBe(decomposed.normalize('NFC'));
    const again = await api({
      method: 'POST',
      path: '/public/store',
      key: tenant.key,
      body: { trade_name: 'Café', store_id: decomposed.normalize('NFC') },
    });
    expect(again.status).toBe(400);
  });
});

describe('GET /public/store/{id}', () => {
  it('answers 200 with the default store 1 of a new tenant', async () => {
    const res = await api({ path: '/public/store/1', key: tenant.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 1, status: 'active', trade_name: 'Loja Paulista' });
  });

  it('answers 404 for an unknown id', async () => {
    const res = await api({ path: '/public/store/999999', key: tenant.key });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ type: '/problems/not-found', status: 404 });
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999', '1e3'])('answers 400 for the path id %s', async (id) => {
    const res = await api({ path: `/public/store/${id}`, key: tenant.key });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('id');
  });

  it("answers 404 for another tenant's store, never its data", async () => {
    const { body: mine } = await create({ trade_name: 'Private', store_id: 'PRIV-1' });
    const res = await api({ path: `/public/store/${mine.id}`, key: other.key });
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('Private');
  });
});

describe('PUT /public/store/{id}', () => {
  it('edits the names, answers 202 with the edited store and keeps the rest', async () => {
    const { body: store } = await create({ trade_name: 'Before', company_name: 'Co', store_id: 'EDIT-1' });
    const res = await api({ method: 'PUT', path: `/public/store/${store.id}`, key: tenant.key, body: { trade_name: 'After' } });

    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      id: store.id,
      trade_name: 'After',
      company_name: 'Co',
      store_id: 'EDIT-1',
      created_at: store.created_at,
    });
    expect(res.body.updated_at >= store.updated_at).toBe(true);
    expect((await api({ path: `/store/${store.id}`, key: tenant.key })).body.trade_name).toBe('After');
  });

  it('answers 404 for an unknown id and creates nothing', async () => {
    const res = await api({ method: 'PUT', path: '/public/store/888888', key: tenant.key, body: { trade_name: 'Ghost' } });
    expect(res.status).toBe(404);
    const { Item } = await db().client.send(
      new GetCommand({ TableName: db().tableName, Key: keys.entity(tenant.tenantId, 'STORE', 888888) }),
    );
    expect(Item).toBeUndefined();
  });

  it('answers 400 for an empty change or a field that cannot be edited', async () => {
    const empty = await api({ method: 'PUT', path: '/public/store/1', key: tenant.key, body: {} });
    const external = await api({ method: 'PUT', path: '/public/store/1', key: tenant.key, body: { store_id: 'X' } });
    expect(empty.status).toBe(400);
    expect(external.status).toBe(400);
    expect(external.body.errors).toEqual([{ path: 'store_id', message: 'is not a known field' }]);
  });

  it("cannot change another tenant's store", async () => {
    const { body: store } = await create({ trade_name: 'Mine' });
    const res = await api({ method: 'PUT', path: `/public/store/${store.id}`, key: other.key, body: { trade_name: 'Hijacked' } });
    expect([404]).toContain(res.status);
    expect((await api({ path: `/public/store/${store.id}`, key: tenant.key })).body.trade_name).toBe('Mine');
  });
});

describe('DELETE /public/store/{id}', () => {
  it('deactivates the store, which stays readable as inactive', async () => {
    const { body: store } = await create({ trade_name: 'Closing' });
    const res = await api({ method: 'DELETE', path: `/public/store/${store.id}`, key: tenant.key });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: store.id, status: 'inactive' });
    expect((await api({ path: `/public/store/${store.id}`, key: tenant.key })).body.status).toBe('inactive');
  });

  it('answers 404 for an unknown id', async () => {
    const res = await api({ method: 'DELETE', path: '/public/store/777777', key: tenant.key });
    expect(res.status).toBe(404);
  });

  it("cannot deactivate another tenant's store", async () => {
    const { body: store } = await create({ trade_name: 'Keep me' });
    expect((await api({ method: 'DELETE', path: `/public/store/${store.id}`, key: other.key })).status).toBe(404);
    expect((await api({ path: `/public/store/${store.id}`, key: tenant.key })).body.status).toBe('active');
  });

  it('can be undone by setting status active', async () => {
    const { body: store } = await create({ trade_name: 'Reopening' });
    await api({ method: 'DELETE', path: `/public/store/${store.id}`, key: tenant.key });
    const res = await api({ method: 'PUT', path: `/public/store/${store.id}`, key: tenant.key, body: { status: 'active' } });
    expect(res.body.status).toBe('active');
  });
});
