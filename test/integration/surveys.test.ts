import { beforeAll, describe, expect, it } from 'vitest';
import { inProcess } from '../support/api.js';
import { usePrivateQueue } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

const publicApi = inProcess('public');
const chatbot = inProcess('chatbot');
let tenant: TestTenant;
// Survey dispatches of this file go to a queue of its own.
usePrivateQueue('surveyDispatch');

beforeAll(async () => {
  tenant = await newTenant();
});

/** A transaction on journey "loja" (nps; classes 1 Atendimento csat, 2 Limpeza csat5Stars) with a survey scheduled. */
async function surveyed(externalId = `S-${Math.random().toString(36).slice(2)}`) {
  const res = await publicApi({
    method: 'POST',
    path: '/public/transaction',
    key: tenant.key,
    body: {
      store_id: 1,
      employee_id: 1,
      customer_integration: `CU-${externalId}`,
      name: 'Maria Clara Souza',
      phone: '11977776666',
      journey: 'loja',
      transaction_id: externalId,
    },
  });
  expect(res.body.survey).toMatchObject({ status: 'scheduled', attempt_id: 1 });
  return res.body as { id: number; transaction_id: string };
}

const answer = (transactionId: number, overrides: Record<string, unknown> = {}) => ({
  transactionId,
  attemptId: 1,
  journey: 'loja',
  classes: [
    { classId: 1, label: 'Atendimento', type: 'csat', score: 5 },
    { classId: 2, label: 'Limpeza', type: 'csat5Stars', score: 4 },
  ],
  score: 9,
  comment: 'Muito bom',
  src: 7,
  source: 'whatsapp',
  ...overrides,
});

const query = (id: number, overrides: Record<string, string | number> = {}) => ({
  transactionId: id,
  attemptId: 1,
  journey: 'loja',
  source: 'whatsapp',
  ...overrides,
});

describe('GET /survey (chatbot API)', () => {
  it('answers what the chatbot needs to conduct the survey', async () => {
    const { id } = await surveyed();
    const res = await chatbot({ path: '/survey', key: tenant.chatbotKey, query: query(id) });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      transactionId: id,
      attemptId: 1,
      journey: 'loja',
      indicator: 'nps',
      scale: { min: 0, max: 10 },
      classes: [
        { classId: 1, label: 'Atendimento', type: 'csat', scale: { min: 1, max: 5 } },
        { classId: 2, label: 'Limpeza', type: 'csat5Stars', scale: { min: 1, max: 5 } },
      ],
      customerFirstName: 'Maria',
      channel: 'whatsapp',
      status: 'scheduled',
      statusCode: 1,
    });
  });

  it('answers 404 for an attempt that does not exist for that journey, or in another tenant', async () => {
    const { id } = await surveyed();
    const other = await newTenant();
    for (const [key, q] of [
      [tenant.chatbotKey, query(id, { attemptId: 2 })],
      [tenant.chatbotKey, query(id, { journey: 'ecommerce' })],
      [tenant.chatbotKey, query(987654321)],
      [other.chatbotKey, query(id)],
    ] as const) {
      expect((await chatbot({ path: '/survey', key, query: q })).status).toBe(404);
    }
  });

  it('answers 400 for invalid or missing parameters', async () => {
    expect((await chatbot({ path: '/survey', key: tenant.chatbotKey, query: query(1, { source: 'pigeon' }) })).body.errors[0].path).toBe(
      'source',
    );
    expect(
      (await chatbot({ path: '/survey', key: tenant.chatbotKey, query: { transactionId: 1, attemptId: 1, journey: 'loja' } })).status,
    ).toBe(400);
    expect((await chatbot({ path: '/survey', key: tenant.chatbotKey, query: query(1, { transactionId: 'abc' }) })).status).toBe(400);
  });

  it('accepts only chatbot keys, and the public API refuses them', async () => {
    expect((await chatbot({ path: '/survey', key: tenant.key, query: query(1) })).status).toBe(401);
    expect((await publicApi({ path: '/public/store', key: tenant.chatbotKey })).status).toBe(401);
  });
});

describe('POST and PUT /survey', () => {
  it('records the answer (201): the transaction is rated and the attempt answered', async () => {
    const { id, transaction_id } = await surveyed();
    const res = await chatbot({ method: 'POST', path: '/survey', key: tenant.chatbotKey, body: answer(id) });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id,
      transaction: id,
      transaction_id,
      journey: 'loja',
      score: 9,
      comment: 'Muito bom',
      source: 'whatsapp',
      src: 7,
      items: [
        { classId: 1, label: 'Atendimento', type: 'csat', score: 5 },
        { classId: 2, label: 'Limpeza', type: 'csat5Stars', score: 4 },
      ],
    });
    const transaction = (await publicApi({ path: `/transaction/${id}`, key: tenant.key })).body;
    expect(transaction).toMatchObject({
      rating: { score: 9, comment: 'Muito bom' },
      rating_items: [
        { class_id: 1, score: 5 },
        { class_id: 2, score: 4 },
      ],
      survey: { status: 'answered' },
    });
    expect((await chatbot({ path: '/survey', key: tenant.chatbotKey, query: query(id) })).body).toMatchObject({
      status: 'answered',
      statusCode: 3,
    });
  });

  it('answers 409 to a second POST, and PUT replaces the answer', async () => {
    const { id } = await surveyed();
    await chatbot({ method: 'POST', path: '/survey', key: tenant.chatbotKey, body: answer(id) });
    const again = await chatbot({ method: 'POST', path: '/survey', key: tenant.chatbotKey, body: answer(id, { score: 3 }) });
    expect(again.status).toBe(409);

    const corrected = await chatbot({
      method: 'PUT',
      path: '/survey',
      key: tenant.chatbotKey,
      body: answer(id, { score: 10, comment: 'corrigido', classes: [] }),
    });
    expect(corrected.status).toBe(200);
    expect(corrected.body).toMatchObject({ score: 10, comment: 'corrigido', items: [] });
    expect((await publicApi({ path: `/transaction/${id}`, key: tenant.key })).body.rating).toEqual({ score: 10, comment: 'corrigido' });
  });

  it('answers 404 to a PUT when there is no answer yet, and to answers for unknown attempts', async () => {
    const { id } = await surveyed();
    expect((await chatbot({ method: 'PUT', path: '/survey', key: tenant.chatbotKey, body: answer(id) })).status).toBe(404);
    expect((await chatbot({ method: 'POST', path: '/survey', key: tenant.chatbotKey, body: answer(id, { attemptId: 2 }) })).status).toBe(
      404,
    );
    expect(
      (await chatbot({ method: 'POST', path: '/survey', key: tenant.chatbotKey, body: answer(id, { journey: 'ecommerce' }) })).status,
    ).toBe(404);
  });

  it('refuses scores out of scale and class types that do not match, naming them, and records nothing', async () => {
    const { id } = await surveyed();
    const res = await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: answer(id, {
        score: 11,
        classes: [
          { classId: 1, label: 'Atendimento', type: 'nps', score: 5 },
          { classId: 2, label: 'Limpeza', type: 'csat5Stars', score: 6 },
          { classId: 3, label: 'Entrega', type: 'ces', score: 1 },
        ],
      }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { path: 'score', message: '11 is not a nps score (0-10)' },
      { path: 'classes[0].type', message: 'class 1 is of type csat' },
      { path: 'classes[1].score', message: '6 is not a csat5Stars score (1-5)' },
      { path: 'classes[2].classId', message: 'class 3 is not a class of journey loja' },
    ]);
    expect((await publicApi({ path: `/transaction/${id}`, key: tenant.key })).body.survey.status).toBe('scheduled');
  });

  it('records one answer when two POSTs race; the other gets 409', async () => {
    const { id } = await surveyed();
    const results = await Promise.all(
      [9, 3, 5, 7].map((score) => chatbot({ method: 'POST', path: '/survey', key: tenant.chatbotKey, body: answer(id, { score }) })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const winner = results.find((r) => r.status === 201)!.body.score;
    expect((await publicApi({ path: `/transaction/${id}`, key: tenant.key })).body.rating.score).toBe(winner);
  });

  it('answers 400 for an invalid body', async () => {
    const res = await chatbot({ method: 'POST', path: '/survey', key: tenant.chatbotKey, body: { transactionId: 'x', classes: 'none' } });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(['transactionId', 'attemptId', 'journey', 'classes', 'score']),
    );
  });
});

describe('flexible-form ratings (public API)', () => {
  const today = new Date().toISOString().slice(0, 10);
  const list = (q: Record<string, string | number>, token = tenant.userToken) =>
    publicApi({ path: '/public/rating/formbuilder', key: tenant.key, headers: { 'x-service-user-token': token }, query: q });

  it('lists answers and ratings given with transactions, newest first, paged by cursor', async () => {
    const t = await newTenant();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const tx = await publicApi({
        method: 'POST',
        path: '/public/transaction',
        key: t.key,
        body: {
          store_id: 1,
          employee_id: 1,
          customer_integration: `FB-${i}`,
          phone: '11966665555',
          journey: 'loja',
          transaction_id: `FB-${i}`,
        },
      });
      await chatbot({ method: 'POST', path: '/survey', key: t.chatbotKey, body: answer(tx.body.id, { score: i }) });
      ids.push(tx.body.id);
    }
    const rated = await publicApi({
      method: 'POST',
      path: '/public/transaction',
      key: t.key,
      body: { store_id: 1, employee_id: 1, customer_integration: 'FB-R', journey: 'loja', score: 10, transaction_id: 'FB-R' },
    });
    ids.push(rated.body.id);

    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await publicApi({
        path: '/rating/formbuilder',
        key: t.key,
        headers: { 'x-service-user-token': t.userToken },
        query: { start_date: today, end_date: today, limit: 3, ...(cursor ? { cursor } : {}) },
      });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((e: { id: number }) => e.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const byExternal = await publicApi({ path: '/public/rating/formbuilder/FB-R', key: t.key, query: { is_external: 'true' } });
    expect(byExternal.body).toMatchObject({ id: rated.body.id, score: 10, source: 'api', src: 14 });
  });

  it('reads one evaluation by id, or by transaction_id with is_external=true; 404 when absent', async () => {
    const { id, transaction_id } = await surveyed();
    expect((await publicApi({ path: `/public/rating/formbuilder/${id}`, key: tenant.key })).status).toBe(404);
    await chatbot({ method: 'POST', path: '/survey', key: tenant.chatbotKey, body: answer(id) });
    expect((await publicApi({ path: `/public/rating/formbuilder/${id}`, key: tenant.key })).body).toMatchObject({ id, score: 9 });
    expect(
      (await publicApi({ path: `/public/rating/formbuilder/${transaction_id}`, key: tenant.key, query: { is_external: 'true' } })).body,
    ).toMatchObject({ id });
    expect((await publicApi({ path: '/public/rating/formbuilder/nope', key: tenant.key, query: { is_external: 'true' } })).status).toBe(
      404,
    );
    expect((await publicApi({ path: `/public/rating/formbuilder/${id}`, key: (await newTenant()).key })).status).toBe(404);
  });

  it('requires a user token and valid dates: 401 without a token, 422 otherwise', async () => {
    expect((await list({ start_date: today, end_date: today }, '')).status).toBe(401);
    for (const q of [
      { start_date: today },
      { start_date: '2026-02-30', end_date: today },
      { start_date: '2026-11-10', end_date: '2026-11-01' },
      { start_date: '2026-01-01', end_date: '2026-12-31' },
      { start_date: today, end_date: today, page: 2 },
    ] as Record<string, string | number>[]) {
      const res = await list(q);
      expect(res.status, JSON.stringify(q)).toBe(422);
    }
  });
});
