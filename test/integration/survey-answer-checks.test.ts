import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { putDelivery } from '../../shared/adapters/tenant-repository.js';
import { keys } from '../../shared/keys.js';
import { deliverSurvey } from '../../shared/surveys/delivery.js';
import type { DispatchMessage } from '../../shared/surveys/dispatch.js';
import { inProcess, errorPaths } from '../support/api.js';
import { deliveryPorts, linkConfig } from '../support/delivery.js';
import { usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/** What the answer path checks of the attempt it answers: the survey not expired, and whether it was ever sent (issue 29, M4). */
const dispatch = usePrivateQueue('surveyDispatch');
const api = inProcess('public');
const chatbot = inProcess('chatbot');
let tenant: TestTenant;
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  tenant = await newTenant();
  await putDelivery(tenant.tenantId, { quietHours: null, email: { from: 'pesquisa@loja.example', name: 'Loja Exemplo' } });
});

/** A sale on journey loja at store 1, its survey sent or left waiting. */
async function sale(send: boolean) {
  const id = await registerSale(api, tenant.key);
  const [message] = (await dispatch.drain()) as unknown as DispatchMessage[];
  if (send) expect(await deliverSurvey({ message: message!, ports: deliveryPorts, config: linkConfig() })).toBe('sent');
  return id;
}

const answer = (transactionId: number, score: number, method: 'POST' | 'PUT' = 'POST') =>
  chatbot({ method, path: '/survey', key: tenant.chatbotKey, body: { transactionId, attemptId: 1, journey: 'loja', score, classes: [] } });

/** Moves a survey's expiry (set when its first attempt was sent) into the past. */
const expire = (id: number) =>
  db().client.send(
    new UpdateCommand({
      TableName: db().tableName,
      Key: keys.transaction(tenant.tenantId, id),
      UpdateExpression: 'SET survey.expires_at = :past',
      ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
    }),
  );

describe('the answer path and the attempt it answers', () => {
  it('takes answers to surveys never sent, but counts as responses only the answers to surveys sent: the rate stays at most 1', async () => {
    const sent = await sale(true);
    const waiting = [await sale(false), await sale(false), await sale(false)];
    for (const id of [sent, ...waiting]) expect((await answer(id, 9)).status).toBe(201);

    const res = await api({
      path: '/public/results',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      query: { journey: 'loja', from: today, to: today, group_by: 'store' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([expect.objectContaining({ key: '1', responses: 4, sent: 1, response_rate: 1 })]);
  });

  it('refuses an answer (POST) and a correction (PUT) once the survey expired, with a 410 that says so', async () => {
    const unanswered = await sale(true);
    const answered = await sale(true);
    expect((await answer(answered, 7)).status).toBe(201);
    await Promise.all([expire(unanswered), expire(answered)]);

    const survey = await chatbot({
      path: '/survey',
      key: tenant.chatbotKey,
      query: { transactionId: unanswered, attemptId: 1, journey: 'loja', source: 'whatsapp' },
    });
    expect(survey.body.status).toBe('expired');
    const late = await answer(unanswered, 9);
    expect(late.status, late.text).toBe(410);
    expect(late.body).toMatchObject({ type: '/problems/gone', detail: 'This survey expired: it takes no answer any more.' });
    const correction = await answer(answered, 2, 'PUT');
    expect(correction.status, correction.text).toBe(410);

    const stored = await api({ path: `/public/transaction/${unanswered}`, key: tenant.key });
    expect(stored.body.rating).toBeNull();
    expect((await api({ path: `/public/transaction/${answered}`, key: tenant.key })).body.rating).toMatchObject({ score: 7 });
  });
});

describe('the classes and source of a chatbot answer', () => {
  it('refuses the same class twice in a chatbot answer', async () => {
    const survey = await sale(false);
    const twice = { classId: 1, label: 'Atendimento', type: 'csat', score: 5 };
    const res = await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: { transactionId: survey, attemptId: 1, journey: 'loja', classes: [twice, twice], score: 9 },
    });
    expect(res.status).toBe(400);
    expect(errorPaths(res)).toEqual(['classes']);
  });

  it('refuses a src and a source that name different sources', async () => {
    const survey = await sale(false);
    const res = await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: { transactionId: survey, attemptId: 1, journey: 'loja', classes: [], score: 9, src: 11, source: 'email' },
    });
    expect(res.status).toBe(400);
    expect(errorPaths(res)).toEqual(['source']);
  });
});
