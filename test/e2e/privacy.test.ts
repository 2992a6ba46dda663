import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config.js';
import { overHttp } from '../support/api.js';
import { v2Payload } from '../support/transactions.js';

const api = overHttp();
const chatbot = overHttp('chatbot');
const KEY = 'local-dev-api-key';
const TOKEN = 'local-dev-user-token';

const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> => {
  for (let i = 0; i < 150; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: still waiting`);
};

/** Posts a v2 sale for this customer and waits for the stack's consumer to create it; answers the transaction. */
async function sale(customer: Record<string, unknown>) {
  const post = await api({ method: 'POST', path: '/v2/transactions', key: KEY, body: v2Payload({ customer }) });
  expect(post.status).toBe(201);
  const outcome = await until(
    async () => (await api({ path: `/v2/transactions/requests/${post.headers['x-request-id']}`, key: KEY })).body,
    (body) => body.status !== 'pending',
    'the sale',
  );
  expect(outcome.status).toBe('created');
  return (await api({ path: `/public/transaction/${outcome.transactionId}`, key: KEY })).body;
}

/** Submits a privacy request and waits for the stack's privacy consumer to finish it. */
async function privacyRequest(body: Record<string, unknown>) {
  const post = await api({ method: 'POST', path: '/public/privacy/requests', key: KEY, headers: { 'x-service-user-token': TOKEN }, body });
  expect(post.status, post.text).toBe(202);
  return until(
    async () =>
      (await api({ path: `/public/privacy/requests/${post.body.id}`, key: KEY, headers: { 'x-service-user-token': TOKEN } })).body,
    (request) => request.status !== 'pending',
    'the privacy request',
  );
}

// An export and an erasure with its second pass (3 s here): 21 s on a quiet machine, over 30 under CI's load.
describe('privacy requests through the local stack (API, queue, consumer)', { timeout: 90_000 }, () => {
  it('export a customer with everything kept about them, then erase them', async () => {
    const unique = randomUUID().slice(0, 8);
    const cpf = String(Math.floor(Math.random() * 1e11)).padStart(11, '7');
    const customer = { externalId: `E2E-${unique}`, name: 'Titular E2E', email: `e2e-${unique}@example.com`, cpf };
    const [first, second] = [await sale(customer), await sale(customer)];
    const answered = await chatbot({
      method: 'POST',
      path: '/survey',
      key: 'local-dev-chatbot-key',
      body: { transactionId: first.id, attemptId: 1, journey: 'loja', score: 10, classes: [], comment: `Obrigado ${unique}` },
    });
    expect(answered.status, answered.text).toBe(201);

    const exported = await privacyRequest({ type: 'export', cpf });
    expect(exported).toMatchObject({ status: 'done', subjects: [first.customer_id] });
    const document = await api({
      path: `/public/privacy/requests/${exported.id}/export`,
      key: KEY,
      headers: { 'x-service-user-token': TOKEN },
    });
    expect(document.status).toBe(200);
    const [subject] = document.body.customers;
    expect(subject.customer).toMatchObject({ cpf, client_id: customer.externalId });
    expect(subject.transactions.map((t: { id: number }) => t.id).sort()).toEqual([first.id, second.id].sort());
    expect(JSON.stringify(subject.transactions)).toContain(`Obrigado ${unique}`);

    const erased = await privacyRequest({ type: 'erase', cpf });
    expect(erased).toMatchObject({ status: 'done', subjects: [first.customer_id] });
    // Done only after its second pass, which the stack's privacy consumer ran ERASURE_RECHECK_SECONDS after the first.
    const recheckSeconds = Number(process.env[ENV.erasureRecheckSeconds]);
    expect(recheckSeconds).toBeGreaterThan(0);
    expect(Date.parse(erased.finished_at) - Date.parse(erased.created_at)).toBeGreaterThanOrEqual(recheckSeconds * 1000);
    expect((await api({ path: `/public/customer/${first.customer_id}`, key: KEY })).status).toBe(404);
    const evaluation = await api({ path: `/public/rating/formbuilder/${first.id}`, key: KEY });
    expect(JSON.stringify(evaluation.body)).not.toContain(unique);
    const again = await sale(customer);
    expect(again.customer_id).not.toBe(first.customer_id);

    const reads = await api({
      path: '/public/privacy/access',
      key: KEY,
      headers: { 'x-service-user-token': TOKEN },
      query: { customer: first.customer_id },
    });
    expect(reads.body.data.map((entry: { operation: string }) => entry.operation)).toContain('getPrivacyExport');
  });
});
