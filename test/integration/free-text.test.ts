import { beforeAll, describe, expect, it } from 'vitest';
import { ENV, requireEnv } from '../../shared/config.js';
import { signSurveyLink } from '../../shared/surveys/link.js';
import { inProcess, errorPaths } from '../support/api.js';
import { usePrivateQueue } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/** The free-text rule at each edge that takes text, with the status each already uses for invalid input. */
usePrivateQueue('surveyDispatch');
const api = inProcess('public');
const chatbot = inProcess('chatbot');
let tenant: TestTenant;
let unique = 0;

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const RLO = '\u202E';

async function sale(): Promise<number> {
  const res = await api({
    method: 'POST',
    path: '/public/transaction',
    key: tenant.key,
    body: { store_id: 1, employee_id: 1, journey: 'loja', customer_integration: `TEXT-${unique++}`, phone: '11987650000' },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as number;
}

beforeAll(async () => {
  tenant = await newTenant();
});

describe('free text', () => {
  it('is refused by the public API with its validation status, naming the field', async () => {
    const customer = await api({ method: 'POST', path: '/public/customer', key: tenant.key, body: { name: `Ana${RLO}Lima` } });
    expect(customer.status).toBe(400);
    expect(errorPaths(customer)).toEqual(['name']);
    const store = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja\u0007Centro' } });
    expect(store.status).toBe(400);
    expect(errorPaths(store)).toEqual(['trade_name']);
    const v2 = await api({
      method: 'POST',
      path: '/v2/transactions',
      key: tenant.key,
      body: {
        store: { id: 1 },
        employee: { id: 1 },
        customer: { externalId: 'T', name: 'Bia\u2028Souza' },
        transaction: { journeySlug: 'loja' },
      },
    });
    expect(v2.status).toBe(400);
    expect(errorPaths(v2)).toEqual(['customer.name']);
    const legacy = await api({
      method: 'POST',
      path: '/public/transaction',
      key: tenant.key,
      body: { store_id: 1, employee_id: 1, journey: 'loja', customer_integration: 'T', score: 9, comment: 'ok\u0000' },
    });
    expect(legacy.status).toBe(422);
    expect(errorPaths(legacy)).toEqual(['comment']);
  });

  it("is refused by the chatbot's survey answer, and the respondent's phone must be a phone", async () => {
    const id = await sale();
    const answer = (extra: Record<string, unknown>) =>
      chatbot({
        method: 'POST',
        path: '/survey',
        key: tenant.chatbotKey,
        body: { transactionId: id, attemptId: 1, journey: 'loja', score: 9, classes: [], ...extra },
      });
    for (const [extra, field] of [
      [{ phone: 'call me maybe' }, 'phone'],
      [{ name: `Caio${RLO}` }, 'name'],
      [{ comment: 'bom\u001b[31m' }, 'comment'],
    ] as const) {
      const res = await answer(extra);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(errorPaths(res)).toEqual([field]);
    }
    const ok = await answer({ phone: '(11) 98765-0000', name: 'Caio', comment: 'Bom\natendimento' });
    expect(ok.status, ok.text).toBe(201);
    const stored = await api({ path: `/public/transaction/${id}`, key: tenant.key });
    expect(stored.body.rating).toEqual({ score: 9, comment: 'Bom\natendimento' });
  });

  it('is refused by the survey page with its 400 page, recording nothing; a comment keeps its new lines', async () => {
    const id = await sale();
    const link = signSurveyLink(
      { tenantId: tenant.tenantId, transactionId: id, attemptId: 1, channel: 'whatsapp', expiresAt: Math.floor(Date.now() / 1000) + 3600 },
      requireEnv(ENV.surveySecret),
    );
    const bad = await api({
      method: 'POST',
      path: `/s/${link}`,
      headers: FORM,
      body: `score=9&comment=${encodeURIComponent(`Bom${RLO}`)}`,
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('O comentário não pode conter caracteres de controle ou de direção de texto.');
    expect((await api({ path: `/public/transaction/${id}`, key: tenant.key })).body.rating).toBeNull();

    const ok = await api({ method: 'POST', path: `/s/${link}`, headers: FORM, body: 'score=9&comment=Bom%0D%0Aatendimento' });
    expect(ok.status).toBe(303);
    expect((await api({ path: `/public/transaction/${id}`, key: tenant.key })).body.rating).toEqual({
      score: 9,
      comment: 'Bom\r\natendimento',
    });
  });
});
