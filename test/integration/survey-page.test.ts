import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { dataSubjects } from '../../shared/adapters/privacy-repository.js';
import { keys } from '../../shared/keys.js';
import { erase } from '../../shared/privacy/service.js';
import { ENV, requireEnv } from '../../shared/config.js';
import { signSurveyLink, type SurveyLink } from '../../shared/surveys/link.js';
import { inProcess } from '../support/api.js';
import { usePrivateQueue } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/** The survey page's statuses through the gateway and the real handlers, each an HTML page, as deployed. */
usePrivateQueue('surveyDispatch');
const api = inProcess('public');
let tenant: TestTenant;
let other: TestTenant;
let transactionId: number;

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const token = (link: Partial<SurveyLink> = {}) =>
  signSurveyLink(
    {
      tenantId: tenant.tenantId,
      transactionId,
      attemptId: 1,
      channel: 'whatsapp',
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
      ...link,
    },
    requireEnv(ENV.surveySecret),
  );

beforeAll(async () => {
  [tenant, other] = await Promise.all([newTenant(), newTenant()]);
  const res = await api({
    method: 'POST',
    path: '/public/transaction',
    key: tenant.key,
    body: { store_id: 1, employee_id: 1, journey: 'loja', customer_integration: 'PAGE-1', phone: '11987650000' },
  });
  transactionId = res.body.id;
});

const html = (res: { headers: Record<string, string> }) => expect(res.headers['content-type']).toBe('text/html; charset=utf-8');

describe('the survey page through the gateway', () => {
  it('answers 404 for a tampered token, another attempt, another tenant or a path that is no token', async () => {
    const good = token();
    for (const path of [
      `/s/${good.slice(0, -2)}${good.endsWith('AA') ? 'BB' : 'AA'}`,
      `/s/${token({ attemptId: 2 })}`,
      `/s/${token({ tenantId: other.tenantId })}`,
      '/s/not-a-token',
    ]) {
      const res = await api({ path });
      expect(res.status, path).toBe(404);
      html(res);
      expect(res.text).toContain('Pesquisa não encontrada');
    }
  });

  it('answers 410 once the link has expired, for the page and the form', async () => {
    const expired = token({ expiresAt: Math.floor(Date.now() / 1000) - 1 });
    expect((await api({ path: `/s/${expired}` })).status).toBe(410);
    const posted = await api({ method: 'POST', path: `/s/${expired}`, headers: FORM, body: 'score=9' });
    expect(posted.status).toBe(410);
    html(posted);
  });

  it('answers 400 with the form and the problem, then 303 for a valid form, then 409; the transaction shows the answer', async () => {
    const t = token();
    const bad = await api({ method: 'POST', path: `/s/${t}`, headers: FORM, body: 'score=11&class_9=1' });
    expect(bad.status).toBe(400);
    html(bad);
    expect(bad.text).toContain('A nota deve ser de 0 a 10.');
    expect(bad.text).toContain('A pergunta 9 não faz parte desta pesquisa.');
    expect(bad.text).toContain('<form');

    const ok = await api({ method: 'POST', path: `/s/${t}`, headers: FORM, body: 'score=10&class_1=5&comment=%C3%93timo' });
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe(t);
    expect((await api({ method: 'POST', path: `/s/${t}`, headers: FORM, body: 'score=1' })).status).toBe(409);
    expect((await api({ path: `/s/${t}` })).text).toContain('Obrigado!');

    const transaction = await api({ path: `/public/transaction/${transactionId}`, key: tenant.key });
    expect(transaction.body).toMatchObject({
      rating: { score: 10, comment: 'Ótimo' },
      rating_items: [{ class_id: 1, score: 5 }],
      survey: { status: 'answered' },
    });
    expect((await api({ path: `/public/rating/formbuilder/${transactionId}`, key: tenant.key })).body).toMatchObject({
      source: 'whatsapp',
      src: 7,
    });
  });

  it('opts the customer out with one click, and later transactions are not surveyed', async () => {
    const one = await api({ method: 'POST', path: `/s/${token()}/unsubscribe`, body: 'List-Unsubscribe=One-Click', headers: FORM });
    expect(one.status).toBe(200);
    html(one);
    const later = await api({
      method: 'POST',
      path: '/public/transaction',
      key: tenant.key,
      body: { store_id: 1, employee_id: 1, journey: 'loja', customer_integration: 'PAGE-1' },
    });
    expect(later.body.survey).toMatchObject({ status: 'not_sent', reason: 'opted_out' });
  });
});

describe('the survey page of a transaction that changed since its link went out', () => {
  const sale = async (customer: string) => {
    const res = await api({
      method: 'POST',
      path: '/public/transaction',
      key: tenant.key,
      body: { store_id: 1, employee_id: 1, journey: 'loja', customer_integration: customer, name: 'Vera Link', phone: '11987650001' },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };

  it("answers 410, never a 500, for an erased customer's link, to the page and to the form, and records nothing", async () => {
    const id = await sale(`ERASED-${randomUUID().slice(0, 8)}`);
    const { body } = await api({ path: `/public/transaction/${id}`, key: tenant.key });
    await erase(dataSubjects, tenant.tenantId, {
      customerId: body.customer_id as number,
      mark: { requestId: 'pr_page', at: new Date().toISOString() },
    });
    const t = token({ transactionId: id });

    const shown = await api({ path: `/s/${t}` });
    expect(shown.status).toBe(410);
    html(shown);
    expect(shown.text).toContain('Pesquisa encerrada');
    expect(shown.text).not.toContain('Vera');
    const posted = await api({ method: 'POST', path: `/s/${t}`, headers: FORM, body: 'score=9&comment=Sou+a+Vera' });
    expect(posted.status).toBe(410);
    html(posted);
    expect((await api({ path: `/public/transaction/${id}`, key: tenant.key })).body.rating).toBeNull();
  });

  it('takes the answer to a link of a journey whose slug was renamed in the tenant file since (journeys compare by id)', async () => {
    const id = await sale(`RENAMED-${randomUUID().slice(0, 8)}`);
    // Registered when journey 1 was called 'loja-antiga': the transaction keeps the slug it was registered under.
    await db().client.send(
      new UpdateCommand({
        TableName: db().tableName,
        Key: keys.transaction(tenant.tenantId, id),
        UpdateExpression: 'SET journey_slug = :old',
        ExpressionAttributeValues: { ':old': 'loja-antiga' },
      }),
    );
    const t = token({ transactionId: id });
    expect((await api({ path: `/s/${t}` })).status).toBe(200);
    const posted = await api({ method: 'POST', path: `/s/${t}`, headers: FORM, body: 'score=8' });
    expect(posted.status, posted.text).toBe(303);
    expect((await api({ path: `/public/transaction/${id}`, key: tenant.key })).body.rating).toMatchObject({ score: 8 });
  });
});
