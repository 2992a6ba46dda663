import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { keys } from '../../shared/keys.js';
import { inProcess } from '../support/api.js';
import { consume } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { messageFor, outcomePath, v2Payload } from '../support/transactions.js';

const api = inProcess();
let tenant: TestTenant;
let other: TestTenant;

beforeAll(async () => {
  [tenant, other] = await Promise.all([newTenant(), newTenant()]);
});

const create = (body: unknown, key = tenant.key) => api({ method: 'POST', path: '/public/customer', key, body });
const edit = (id: number, body: unknown, key = tenant.key) => api({ method: 'PUT', path: `/public/customer/${id}`, key, body });
const errorPaths = (res: { body: { errors: { path: string }[] } }) => res.body.errors.map((e) => e.path).sort();

describe('POST /public/customer', () => {
  it('creates a customer and answers 200 with it, phones in E.164 and the cpf as digits', async () => {
    const res = await create({
      name: 'Ana Souza',
      email: 'Ana@Example.com',
      phone: '(11) 99999-0001',
      phone2: '+1 415 555 2671',
      cpf: '123.456.789-09',
      birth_date: '1990-01-31',
      gender: 'F',
      client_id: 'C-1',
    });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Ana Souza',
      email: 'ana@example.com',
      phone: '+5511999990001',
      phone2: '+14155552671',
      cpf: '12345678909',
      birth_date: '1990-01-31',
      gender: 'F',
      client_id: 'C-1',
      opt_out: false,
    });
    expect(res.body.warnings).toBeUndefined();
    expect((await api({ path: `/customer/${res.body.id}`, key: tenant.key })).body).toEqual(res.body);
  });

  it('ignores an impossible birth date on create, and says so', async () => {
    const res = await create({ name: 'Bia', birth_date: '1998-04-31' });

    expect(res.status).toBe(200);
    expect(res.body.birth_date).toBeNull();
    expect(res.body.warnings).toEqual([
      { path: 'birth_date', message: 'is not a valid birth date (a calendar date, not in the future) and was ignored' },
    ]);
    expect((await api({ path: `/customer/${res.body.id}`, key: tenant.key })).body.birth_date).toBeNull();
  });

  it('ignores a birth date in the future on create, with a warning, and refuses it on edit', async () => {
    const created = await api({
      method: 'POST',
      path: '/public/customer',
      key: tenant.key,
      body: { name: 'Futuro', birth_date: '2999-01-01' },
    });
    expect(created.status).toBe(200);
    expect(created.body.birth_date).toBeNull();
    expect(created.body.warnings).toEqual([expect.objectContaining({ path: 'birth_date' })]);
    const edited = await api({
      method: 'PUT',
      path: `/public/customer/${created.body.id}`,
      key: tenant.key,
      body: { birth_date: '2999-01-01' },
    });
    expect(edited.status).toBe(400);
  });

  it('rejects a phone longer than 20 characters with 400 naming it', async () => {
    const res = await create({ name: 'Caio', phone: '+55 (11) 99999-0001 ramal 22' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'phone', message: 'must be at most 20 characters' }]);
  });

  it('rejects text that cannot be a phone', async () => {
    const res = await create({ name: 'Caio', phone: '123' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'phone', message: 'is not a phone number' }]);
  });

  it('rejects a numeric client_id, saying it must be a string', async () => {
    const res = await create({ name: 'Duda', client_id: 12345 });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ path: 'client_id' });
    expect(res.body.errors[0].message).toMatch(/must be a string/);
  });

  it.each(['1234567890', '123.456.789-0X', '123456789012'])('rejects the cpf %s', async (cpf) => {
    const res = await create({ name: 'Eva', cpf });
    expect(res.status).toBe(400);
    expect(errorPaths(res)).toEqual(['cpf']);
  });

  it('rejects a duplicate client_id, and concurrent creates with one client_id create one customer', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => create({ name: 'Twin', client_id: 'TWIN-1' })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400).every((r) => r.body.type === '/problems/conflict')).toBe(true);
    const listed = await api({
      path: '/public/customer',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      query: { client_id: 'TWIN-1' },
    });
    expect(listed.body.data).toHaveLength(1);
  });

  it('rejects fields a client may not set, an invalid e-mail and an empty body', async () => {
    expect(errorPaths(await create({ name: 'X', id: 5 }))).toEqual(['id']);
    expect(errorPaths(await create({ name: 'X', email: 'not-an-email' }))).toEqual(['email']);
    const empty = await create({});
    expect(empty.status).toBe(400);
  });

  it('names a customer without a name after its e-mail', async () => {
    const res = await create({ email: 'noname@example.com' });
    expect(res.body.name).toBe('noname@example.com');
  });
});

describe('PUT /public/customer/{id}', () => {
  it('changes the fields sent, answers 201 with the customer, and keeps the rest', async () => {
    const { body: customer } = await create({ name: 'Fábio', email: 'fabio@example.com', phone: '11988887777', client_id: 'F-1' });
    const res = await edit(customer.id, { email: 'fabio@new.example.com', phone2: '21 3333-4444', opt_out: true });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Fábio',
      email: 'fabio@new.example.com',
      phone: '+5511988887777',
      phone2: '+552133334444',
      opt_out: true,
      client_id: 'F-1',
    });
    const byOldEmail = await api({
      path: '/customer',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      query: { email: 'fabio@example.com' },
    });
    expect(byOldEmail.body.data).toEqual([]);
  });

  it('rejects an impossible birth date with 400 naming birth_date, and changes nothing', async () => {
    const { body: customer } = await create({ name: 'Gil', birth_date: '1990-02-01' });
    const res = await edit(customer.id, { birth_date: '1998-04-31', name: 'Changed' });

    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'birth_date', message: 'is not a valid birth date (a calendar date, not in the future)' }]);
    expect((await api({ path: `/customer/${customer.id}`, key: tenant.key })).body).toMatchObject({
      name: 'Gil',
      birth_date: '1990-02-01',
    });
  });

  it('answers 404 for an unknown id, and creates nothing', async () => {
    const res = await edit(987654, { name: 'Ghost' });
    expect(res.status).toBe(404);
    const { Item } = await db().client.send(
      new GetCommand({ TableName: db().tableName, Key: keys.entity(tenant.tenantId, 'CUSTOMER', 987654) }),
    );
    expect(Item).toBeUndefined();
  });

  it('moves client_id: the old one becomes free and the new one is taken', async () => {
    const { body: a } = await create({ name: 'Hugo', client_id: 'MOVE-A' });
    const { body: b } = await create({ name: 'Iris', client_id: 'MOVE-B' });

    expect((await edit(a.id, { client_id: 'MOVE-B' })).status).toBe(400);
    expect((await edit(a.id, { client_id: 'MOVE-C' })).body.client_id).toBe('MOVE-C');
    expect((await create({ name: 'Newcomer', client_id: 'MOVE-A' })).status).toBe(200);
    expect((await edit(b.id, { client_id: null })).body.client_id).toBeNull();
    expect((await create({ name: 'Another', client_id: 'MOVE-B' })).status).toBe(200);
  });

  it("cannot read or change another tenant's customer", async () => {
    const { body: customer } = await create({ name: 'Private Person', cpf: '98765432100' });
    expect((await api({ path: `/public/customer/${customer.id}`, key: other.key })).status).toBe(404);
    expect((await edit(customer.id, { name: 'Hijacked' }, other.key)).status).toBe(404);
    expect((await api({ path: `/public/customer/${customer.id}`, key: tenant.key })).body.name).toBe('Private Person');
    const search = await api({
      path: '/public/customer',
      key: other.key,
      headers: { 'x-service-user-token': other.userToken },
      query: { cpf: '98765432100' },
    });
    expect(search.body.data).toEqual([]);
  });
});

describe('GET /public/customer/{id}', () => {
  it('answers 404 for an unknown id and 400 for one that is not an id', async () => {
    expect((await api({ path: '/public/customer/999999', key: tenant.key })).status).toBe(404);
    expect((await api({ path: '/public/customer/abc', key: tenant.key })).status).toBe(400);
  });
});

describe('the customer locale (pt-BR, es or en)', () => {
  const read = async (id: number) => (await api({ path: `/public/customer/${id}`, key: tenant.key })).body;
  const refusal = [{ path: 'locale', message: 'must be one of pt-BR, es, en' }];

  it('is stored on create, changed and cleared on edit, and returned by GET', async () => {
    const created = await create({ name: 'Lola', locale: 'es' });
    expect(created.status).toBe(200);
    expect(created.body.locale).toBe('es');
    expect((await read(created.body.id)).locale).toBe('es');

    expect((await edit(created.body.id, { locale: 'en' })).body.locale).toBe('en');
    expect((await read(created.body.id)).locale).toBe('en');
    const cleared = await edit(created.body.id, { locale: null });
    expect(cleared.status).toBe(201);
    expect(await read(created.body.id)).not.toHaveProperty('locale');
    const { body: without } = await create({ name: 'Sem idioma' });
    expect(await read(without.id)).not.toHaveProperty('locale');
  });

  it('refuses any other value on create and edit, naming the field and the allowed values, and changes nothing', async () => {
    for (const locale of ['fr', 'pt_BR', 'PT-BR', '', 1]) {
      const res = await create({ name: 'Lola', locale });
      expect(res.status, String(locale)).toBe(400);
      expect(res.body.errors).toEqual(refusal);
    }
    const { body: customer } = await create({ name: 'Mia', locale: 'pt-BR' });
    const res = await edit(customer.id, { locale: 'fr', name: 'Changed' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(refusal);
    expect(await read(customer.id)).toMatchObject({ name: 'Mia', locale: 'pt-BR' });
  });

  it('is taken from a v2 transaction’s customer.locale for the customer it creates, and a wrong one is refused with 400', async () => {
    const payload = v2Payload({
      customer: { externalId: `LOC-${randomUUID().slice(0, 8)}`, name: 'Nina', phone: '11987654321', locale: 'en' },
    });
    const message = messageFor(tenant.tenantId, payload);
    expect((await consume([message])).failed).toEqual([]);
    const outcome = (await api({ path: outcomePath(message), key: tenant.key })).body;
    expect(outcome).toMatchObject({ status: 'created', errors: [] });
    const transaction = (await api({ path: `/public/transaction/${outcome.transactionId}`, key: tenant.key })).body;
    expect((await read(transaction.customer_id)).locale).toBe('en');

    const wrong = await api({
      method: 'POST',
      path: '/v2/transactions',
      key: tenant.key,
      body: v2Payload({ customer: { externalId: 'LOC-X', locale: 'de' } }),
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([{ path: 'customer.locale', message: 'must be one of pt-BR, es, en' }]);
  });

  it('is taken from a legacy transaction’s locale field, and a wrong one is refused with 422', async () => {
    const post = (body: Record<string, unknown>) => api({ method: 'POST', path: '/public/transaction', key: tenant.key, body });
    const sale = { store_id: 1, employee_id: 1, customer_integration: `LOC-L-${randomUUID().slice(0, 8)}`, journey: 'loja' };
    const res = await post({ ...sale, name: 'Olga', phone: '11955554444', locale: 'es' });
    expect(res.status, res.text).toBe(201);
    expect((await read(res.body.customer_id)).locale).toBe('es');

    const wrong = await post({ ...sale, locale: 'es-AR' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual(refusal);
  });
});
