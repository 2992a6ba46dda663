import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { overHttp } from '../support/api.js';
import { emailsOf, until, type Mail } from '../support/mailbox.js';

/**
 * Issue 33's first loop through the local stack, as it runs for a person: the demo tenant's journey loja opens a case
 * for a detractor, its queue's consumer (the stack's poller) alerts the store-1 manager gerente@demo.local in the
 * local mailbox with a link to the case, the API lists it, a manager works it to resolved; a redelivery and a
 * correction send no second alert.
 */
const api = overHttp('public');
const chatbot = overHttp('chatbot');
const sesUrl = inject('sesUrl');
const KEY = 'local-dev-api-key';
const CHATBOT_KEY = 'local-dev-chatbot-key';
const TOKEN = 'local-dev-user-token';
const MANAGER = 'gerente@demo.local';

const alertsFor = async (link: string) => {
  const emails = await emailsOf<Mail>(sesUrl);
  return emails.filter((e) => e.destination.to.includes(MANAGER) && e.body.text.includes(link));
};

describe('a case through the local stack', () => {
  it('alerts gerente@demo.local once with a link to the case, lists it as open in store 1, and is resolved with a root cause', async () => {
    const marker = `Fila enorme ${randomUUID().slice(0, 8)}`;
    const sale = await api({
      method: 'POST',
      path: '/public/transaction',
      key: KEY,
      body: {
        store_id: 1,
        employee_id: 1,
        journey: 'loja',
        customer_integration: `CASE-${randomUUID()}`,
        name: 'Rui Costa',
        phone: '11955551234',
      },
    });
    expect(sale.status, sale.text).toBe(201);
    const id = sale.body.id as number;
    const answer = { transactionId: id, attemptId: 1, journey: 'loja', score: 2, classes: [], comment: marker };
    expect((await chatbot({ method: 'POST', path: '/survey', key: CHATBOT_KEY, body: answer })).status).toBe(201);

    const link = `/app/cases/${id}`;
    const [alert] = await until(async () => {
      const found = await alertsFor(link);
      return found.length ? found : undefined;
    }, `the alert of case ${id}`);
    expect(alert!.body.text).toContain(marker);
    expect(alert!.body.text).toContain('Loja Paulista');
    expect(alert!.body.text).toContain('Ana Souza');

    const open = await api({
      path: '/public/cases',
      key: KEY,
      headers: { 'x-service-user-token': TOKEN },
      query: { store: 1, status: 'open', limit: 100 },
    });
    expect(open.status, open.text).toBe(200);
    expect(open.body.data.map((c: { id: number }) => c.id)).toContain(id);

    // The chatbot resends its answer (409: answered already) and corrects it: the case shows the correction, one case, one alert.
    expect((await chatbot({ method: 'POST', path: '/survey', key: CHATBOT_KEY, body: answer })).status).toBe(409);
    expect((await chatbot({ method: 'PUT', path: '/survey', key: CHATBOT_KEY, body: { ...answer, score: 1 } })).status).toBe(200);
    const corrected = await until(async () => {
      const read = await api({ path: `/public/cases/${id}`, key: KEY, headers: { 'x-service-user-token': TOKEN } });
      return read.body.score === 1 ? read : undefined;
    }, 'the corrected score on the case');

    const started = await api({
      method: 'PATCH',
      path: `/public/cases/${id}`,
      key: KEY,
      headers: { 'x-service-user-token': TOKEN, 'if-match': corrected.headers.etag! },
      body: { status: 'in_progress' },
    });
    expect(started.status, started.text).toBe(200);
    const resolved = await api({
      method: 'PATCH',
      path: `/public/cases/${id}`,
      key: KEY,
      headers: { 'x-service-user-token': TOKEN, 'if-match': started.headers.etag! },
      body: { status: 'resolved', root_cause: 'Atendimento', note: 'Liguei e ofereci um vale' },
    });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body).toMatchObject({ status: 'resolved', root_cause: 'Atendimento', score: 1 });
    expect(await alertsFor(link)).toHaveLength(1);
  }, 60_000);
});
