import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { logger } from '../../shared/logger.js';
import { inProcess } from '../support/api.js';
import { whileFailing } from '../support/faults.js';
import { consume, usePrivateQueue } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { messageFor, outcomePath, v2Payload } from '../support/transactions.js';

/** Inputs that used to stall a function, lose an accepted transaction or answer 500: each now a clear 4xx or outcome. */
const api = inProcess('public');
const chatbot = inProcess('chatbot');
const transactions = usePrivateQueue('transactions');
usePrivateQueue('surveyDispatch');
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await newTenant();
});

const post = (body: unknown) => api({ method: 'POST', path: '/v2/transactions', key: tenant.key, body });
const legacy = (body: Record<string, unknown>) =>
  api({
    method: 'POST',
    path: '/public/transaction',
    key: tenant.key,
    body: { store_id: 1, employee_id: 1, customer_integration: `R-${Math.random()}`, journey: 'loja', ...body },
  });
const paths = (res: { body: { errors?: { path: string }[] } }) => (res.body.errors ?? []).map((e) => e.path);

/** Registers a v2 payload through the consumer and answers its outcome. */
async function outcomeOf(payload: Record<string, unknown>) {
  const message = messageFor(tenant.tenantId, payload);
  expect((await consume([message])).failed).toEqual([]);
  return (await api({ path: outcomePath(message), key: tenant.key })).body;
}

describe('dates', () => {
  it('answers a far-future evaluation range with 422 in milliseconds', async () => {
    const started = Date.now();
    const res = await api({
      path: '/public/rating/formbuilder',
      key: tenant.key,
      query: { token: tenant.userToken, start_date: '9999-12-01', end_date: '9999-12-02' },
    });
    expect(res.status).toBe(422);
    expect(paths(res)).toContain('start_date');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses register_date and transaction.date that are not ISO 8601 days that exist', async () => {
    for (const register_date of ['2026-02-30', '1', 'March 7', '+275760-09-13', '2026-11-20 10:00']) {
      const res = await legacy({ register_date });
      expect(res.status, register_date).toBe(422);
      expect(paths(res)).toEqual(['register_date']);
    }
    expect((await legacy({ register_date: '2026-11-20T10:00:00-03:00' })).status).toBe(201);
    const res = await post(v2Payload({ transaction: { journeySlug: 'loja', date: '2026-02-30T10:00:00Z' } }));
    expect(res.status).toBe(400);
    expect(paths(res)).toEqual(['transaction.date']);
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
        paths(res).some((p) => p.startsWith(path)),
        `${JSON.stringify(params)}: ${paths(res)}`,
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

describe('consumer failures', () => {
  const lines: string[] = [];
  beforeAll(() => {
    logger.setLogLevel('INFO');
    const capture = (chunk: unknown) => {
      lines.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  });
  afterAll(() => {
    vi.restoreAllMocks();
    logger.setLogLevel('SILENT');
  });

  it('logs every failed record with its request id, and records `failed` on the last receive', async () => {
    const cpf = '39053344705';
    const message = messageFor(tenant.tenantId, v2Payload({ customer: { externalId: `F-${Date.now()}`, cpf } }));
    const broken = Object.assign(new Error('The table is gone'), { name: 'ResourceNotFoundException', $metadata: {} });

    await whileFailing(/^Put/, broken, async () => {
      expect((await consume([message])).failed).toEqual([0]);
      expect((await api({ path: outcomePath(message), key: tenant.key })).body.status).toBe('pending');
    });
    const failure = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.message === 'Transaction record failed' && line.requestId === message.requestId);
    expect(failure).toMatchObject({
      tenantId: tenant.tenantId,
      requestId: message.requestId,
      receives: 1,
      error: { name: 'ResourceNotFoundException' },
    });
    expect(lines.join('')).not.toContain(cpf);

    await whileFailing(/^Put/, broken, async () => {
      expect((await consume([message], { receiveCount: 4 })).failed).toEqual([0]);
    });
    // The failure outcome itself is one PutItem: it is written once the table answers again, on the fifth receive.
    const stack = db().client.middlewareStack;
    let puts = 0;
    stack.add(
      (next, context) => async (args) => {
        if (/^Put/.test(String(context.commandName)) && puts++ === 0) throw broken;
        return next(args);
      },
      { step: 'initialize', name: 'failFirstPut' },
    );
    try {
      expect((await consume([message], { receiveCount: 5 })).failed).toEqual([0]);
    } finally {
      stack.remove('failFirstPut');
    }
    expect((await api({ path: outcomePath(message), key: tenant.key })).body).toMatchObject({
      status: 'failed',
      transactionId: null,
      errors: [{ path: 'request' }],
    });

    // A redrive that succeeds replaces the failure with the transaction.
    expect((await consume([message], { receiveCount: 1 })).failed).toEqual([]);
    expect((await api({ path: outcomePath(message), key: tenant.key })).body.status).toBe('created');
  });
});

describe('cursors', () => {
  const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('answers 422 for any cursor the list did not issue', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const month = today.slice(0, 7);
    const crafted: [string, Record<string, string | number>][] = [
      ['/public/customer', { token: tenant.userToken, cursor: cursor({ id: 2 ** 53 }) }],
      ['/public/customer', { token: tenant.userToken, cursor: cursor({ id: 2 ** 31 }) }],
      ['/public/store', { status: 'active', cursor: cursor({ pk: '', sk: '', gsi2pk: '', gsi2sk: '' }) }],
      [
        '/public/rating/formbuilder',
        {
          token: tenant.userToken,
          start_date: today,
          end_date: today,
          cursor: cursor({
            month,
            key: { pk: 'x', sk: 'TX', gsi2pk: `T#${tenant.tenantId}#EVAL#${month}`, gsi2sk: `${today}#1`, extra: 1 },
          }),
        },
      ],
      [
        '/public/rating/formbuilder',
        {
          token: tenant.userToken,
          start_date: today,
          end_date: today,
          cursor: cursor({ month, key: { pk: 'x', sk: 'TX', gsi2pk: `T#${tenant.tenantId}#EVAL#${month}`, gsi2sk: 5 } }),
        },
      ],
      [
        '/public/rating/formbuilder',
        {
          token: tenant.userToken,
          start_date: today,
          end_date: today,
          cursor: cursor({ month, key: { pk: 'x', sk: 'TX', gsi2pk: `T#${tenant.tenantId}#EVAL#${month}`, gsi2sk: '1999-01-01' } }),
        },
      ],
    ];
    for (const [path, query] of crafted) {
      const res = await api({ path, key: tenant.key, query });
      expect(res.status, `${path} ${query.cursor}`).toBe(422);
      expect(paths(res)).toEqual(['cursor']);
    }
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
    expect(paths(res)).toEqual(['customer_integration']);
  });
});

describe('loose values', () => {
  it('refuses the same class twice, in a transaction and in a chatbot answer', async () => {
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
    expect(paths(res)).toEqual(['rating_items[1].class_id']);

    const survey = await legacy({ phone: '11977776666' });
    const twice = { classId: 1, label: 'Atendimento', type: 'csat', score: 5 };
    const answer = await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: { transactionId: survey.body.id, attemptId: 1, journey: 'loja', classes: [twice, twice], score: 9 },
    });
    expect(answer.status).toBe(400);
    expect(paths(answer)).toEqual(['classes']);
  });

  it('refuses a src and a source that name different sources', async () => {
    const survey = await legacy({ phone: '11977776666' });
    const res = await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: { transactionId: survey.body.id, attemptId: 1, journey: 'loja', classes: [], score: 9, src: 11, source: 'email' },
    });
    expect(res.status).toBe(400);
    expect(paths(res)).toEqual(['source']);
  });

  it('keeps the warning of an out-of-scale overall score in the v2 outcome', async () => {
    const outcome = await outcomeOf(v2Payload({ rating: { score: 42 } }));
    expect(outcome).toMatchObject({ status: 'created', warnings: [{ path: 'rating.score', message: expect.stringContaining('42') }] });
  });

  it('refuses external codes with invisible, control or unpaired characters, and normalises the rest to NFC', async () => {
    for (const code of ['AB\u200bC', 'AB\u202eC', 'A\ud800B', 'A\u0007B', 'A\u2028B']) {
      const res = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja', store_id: code } });
      expect(res.status, JSON.stringify(code)).toBe(400);
      expect(paths(res)).toEqual(['store_id']);
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

describe('scope of a limited user token', () => {
  it('lists only the evaluations of its stores', async () => {
    const store = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Outra loja' } });
    const mine = await legacy({ score: 9, customer_integration: `SC-1-${Date.now()}` });
    const theirs = await legacy({ store_id: store.body.id, score: 8, customer_integration: `SC-2-${Date.now()}` });
    const today = new Date().toISOString().slice(0, 10);
    const list = async (token: string) =>
      (
        await api({ path: '/public/rating/formbuilder', key: tenant.key, query: { token, start_date: today, end_date: today, limit: 100 } })
      ).body.data.map((e: { id: number }) => e.id);
    const full = await list(tenant.userToken);
    expect(full).toEqual(expect.arrayContaining([mine.body.id, theirs.body.id]));
    const limited = await list(tenant.limitedToken);
    expect(limited).toContain(mine.body.id);
    expect(limited).not.toContain(theirs.body.id);
  });
});
