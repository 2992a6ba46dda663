import { describe, expect, it } from 'vitest';
import { overHttp } from '../support/api.js';
import { v2Payload } from '../support/transactions.js';

const api = overHttp('public');
const chatbot = overHttp('chatbot');
const KEY = 'local-dev-api-key';
const CHATBOT_KEY = 'local-dev-chatbot-key';

describe('a survey end to end through the local stack', () => {
  it('is dispatched for a v2 transaction, fetched, answered and corrected by the chatbot, and listed', async () => {
    const payload = v2Payload();
    const post = await api({ method: 'POST', path: '/v2/transactions', key: KEY, body: payload });
    let outcome: { status: string; transactionId: number } | undefined;
    for (let i = 0; i < 100 && outcome?.status !== 'created'; i++) {
      outcome = (await api({ path: `/v2/transactions/requests/${post.headers['x-request-id']}`, key: KEY })).body;
      if (outcome?.status !== 'created') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const id = outcome!.transactionId;
    const query = { transactionId: id, attemptId: 1, journey: 'loja', source: 'whatsapp' };

    const survey = await chatbot({ path: '/survey', key: CHATBOT_KEY, query });
    expect(survey.body).toMatchObject({ transactionId: id, status: 'scheduled', indicator: 'nps', customerFirstName: 'Cliente' });
    expect((await chatbot({ path: '/survey', key: KEY, query })).status).toBe(401);

    const body = {
      transactionId: id,
      attemptId: 1,
      journey: 'loja',
      classes: [{ classId: 1, label: 'Atendimento', type: 'csat', score: 4 }],
      score: 8,
      src: 7,
    };
    expect((await chatbot({ method: 'POST', path: '/survey', key: CHATBOT_KEY, body })).status).toBe(201);
    expect((await chatbot({ method: 'POST', path: '/survey', key: CHATBOT_KEY, body })).status).toBe(409);
    expect((await chatbot({ method: 'PUT', path: '/survey', key: CHATBOT_KEY, body: { ...body, score: 10 } })).status).toBe(200);

    expect((await api({ path: `/public/transaction/${id}`, key: KEY })).body).toMatchObject({
      rating: { score: 10 },
      survey: { status: 'answered' },
    });
    const today = new Date().toISOString().slice(0, 10);
    const listed = await api({
      path: '/public/rating/formbuilder',
      key: KEY,
      headers: { 'x-service-user-token': 'local-dev-user-token' },
      query: { start_date: today, end_date: today, limit: 100 },
    });
    expect(listed.body.data.map((e: { id: number }) => e.id)).toContain(id);
    const external = (payload.transaction as { externalId: string }).externalId;
    expect((await api({ path: `/public/rating/formbuilder/${external}`, key: KEY, query: { is_external: 'true' } })).body).toMatchObject({
      id,
      score: 10,
      source: 'whatsapp',
      src: 7,
    });
  });
});
