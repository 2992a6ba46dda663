import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { sqs } from '../../shared/adapters/sqs.js';
import { QUEUES } from '../../shared/queues.js';
import { keys } from '../../shared/keys.js';
import { transactionIdFor } from '../../shared/transactions/request-key.js';
import { inProcess } from '../support/api.js';
import { consume, usePrivateQueue } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { messageFor, outcomePath, v2Payload } from '../support/transactions.js';

const api = inProcess();
let tenant: TestTenant;
const dispatch = usePrivateQueue('surveyDispatch');

beforeAll(async () => {
  tenant = await newTenant();
});

/** Runs one payload through the consumer and reads its outcome as a client would. */
async function run(payload: Record<string, unknown>) {
  const message = messageFor(tenant.tenantId, payload);
  const { failed } = await consume([message]);
  expect(failed).toEqual([]);
  const outcome = (await api({ path: outcomePath(message), key: tenant.key })).body;
  const transaction = outcome.transactionId
    ? (await api({ path: `/public/transaction/${outcome.transactionId}`, key: tenant.key })).body
    : undefined;
  return { outcome, transaction, requestId: message.requestId };
}

const getItem = async (key: { pk: string; sk: string }) =>
  (await db().client.send(new GetCommand({ TableName: db().tableName, Key: key }))).Item;

describe('the transaction consumer applies the seed rules', () => {
  it('creates a transaction and schedules survey attempt 1 on the first reachable channel', async () => {
    await dispatch.drain();
    const { outcome, transaction } = await run(
      v2Payload({ transaction: { journeySlug: 'loja', externalId: 'T-OK-1', amount: 50, params: { pos: 'A1' } } }),
    );

    expect(outcome).toMatchObject({ status: 'created', errors: [] });
    expect(transaction).toMatchObject({
      id: outcome.transactionId,
      transaction_id: 'T-OK-1',
      journey_id: 1,
      store_id: 1,
      employee_id: 1,
      amount: 50,
      params: { pos: 'A1' },
      rating: null,
      rating_items: [],
      survey: { status: 'scheduled', reason: null, attempt_id: 1, channel: 'whatsapp' },
    });
    const [sent] = await dispatch.drain();
    expect(sent).toMatchObject({
      version: 1,
      tenantId: tenant.tenantId,
      transactionId: transaction.id,
      attemptId: 1,
      journey: 'loja',
      channel: 'whatsapp',
    });
    // No personal data travels on the queue: the sender reads the contact when it claims the attempt.
    expect(JSON.stringify(sent)).not.toContain('98765');
  });

  it('rejects an unknown journey, and records why (create rule 1: the mandatory identifiers)', async () => {
    const { outcome } = await run(v2Payload({ transaction: { journeySlug: 'nope' } }));
    expect(outcome).toEqual({
      requestId: expect.any(String),
      status: 'rejected',
      transactionId: null,
      errors: [{ path: 'transaction.journeySlug', message: 'journey "nope" does not exist' }],
      warnings: [],
    });
  });

  it('rule 2: does not create a transaction whose rating item class is not available for the journey', async () => {
    const { outcome } = await run(v2Payload({ ratingItems: [{ classId: 3, score: 4 }] }));
    expect(outcome.status).toBe('rejected');
    expect(outcome.errors).toEqual([{ path: 'ratingItems[0].classId', message: 'class 3 is not available for journey loja' }]);
  });

  it('rule 3: does not create a transaction whose rating item score its class does not support', async () => {
    const { outcome } = await run(
      v2Payload({
        ratingItems: [
          { classId: 1, score: 4 },
          { class: 'limpeza', score: 6 },
        ],
      }),
    );
    expect(outcome.status).toBe('rejected');
    expect(outcome.errors).toEqual([{ path: 'ratingItems[1].score', message: '6 is not a csat5Stars score (1-5)' }]);
  });

  it('creates the transaction with a null rating when the journey indicator does not support the score (seed: rating.score)', async () => {
    const { outcome, transaction } = await run(
      v2Payload({ rating: { score: 11, comment: 'off scale' }, ratingItems: [{ classId: 1, score: 5 }] }),
    );
    expect(outcome.status).toBe('created');
    expect(transaction.rating).toBeNull();
    expect(transaction.rating_items).toEqual([{ class_id: 1, score: 5 }]);
    expect(transaction.survey.status).toBe('scheduled');
  });

  it('create rule 4: creates the store, employee and customer an unknown external id names, and reuses them after', async () => {
    const payload = v2Payload({
      store: { externalId: 'ST-NEW', tradeName: 'Loja Nova' },
      employee: { externalId: 'EMP-NEW', name: 'Vera' },
      customer: { externalId: 'CU-NEW', name: 'Nina', cpf: '123.456.789-09', phone: '21 98888-7777' },
    });
    const first = (await run(payload)).transaction;
    const second = (
      await run(
        v2Payload({
          store: { externalId: 'ST-NEW' },
          employee: { externalId: 'EMP-NEW' },
          customer: { externalId: 'CU-NEW', cpf: '99999999999' },
        }),
      )
    ).transaction;

    expect(second).toMatchObject({ store_id: first.store_id, employee_id: first.employee_id, customer_id: first.customer_id });
    expect((await api({ path: `/store/${first.store_id}`, key: tenant.key })).body).toMatchObject({
      store_id: 'ST-NEW',
      trade_name: 'Loja Nova',
      status: 'active',
    });
    expect((await api({ path: `/employee/${first.employee_id}`, key: tenant.key })).body).toMatchObject({
      employee_id: 'EMP-NEW',
      name: 'Vera',
    });
    // And the seed's customer phone rule: a phone without a country code gets +55; and an existing customer's cpf is never overwritten.
    expect((await api({ path: `/customer/${first.customer_id}`, key: tenant.key })).body).toMatchObject({
      client_id: 'CU-NEW',
      name: 'Nina',
      cpf: '12345678909',
      phone: '+5521988887777',
    });
  });

  it('create rule 5: uses store 1 and employee 1 when the store id or employee id does not exist', async () => {
    const { transaction } = await run(v2Payload({ store: { id: 424242 }, employee: { id: 434343 } }));
    expect(transaction).toMatchObject({ store_id: 1, employee_id: 1 });
  });

  it('rejects a customer id that does not exist', async () => {
    const { outcome } = await run(v2Payload({ customer: { id: 999999 } }));
    expect(outcome.errors).toEqual([{ path: 'customer.id', message: 'customer 999999 does not exist' }]);
  });

  it('create rule 6: does not create a transaction for an inactive store', async () => {
    const { body: store } = await api({
      method: 'POST',
      path: '/store',
      key: tenant.key,
      body: { trade_name: 'Fechada', store_id: 'CLOSED' },
    });
    await api({ method: 'DELETE', path: `/store/${store.id}`, key: tenant.key });
    const byId = await run(v2Payload({ store: { id: store.id } }));
    const byCode = await run(v2Payload({ store: { externalId: 'CLOSED' } }));
    for (const { outcome } of [byId, byCode]) expect(outcome.errors).toEqual([{ path: 'store', message: `store ${store.id} is inactive` }]);
  });

  it('create rule 7: dispatches no survey when a rating is given', async () => {
    await dispatch.drain();
    const { transaction } = await run(v2Payload({ rating: { score: 9, comment: 'ótimo' } }));
    expect(transaction.rating).toEqual({ score: 9, comment: 'ótimo' });
    expect(transaction.survey).toEqual({ status: 'not_sent', reason: 'already_rated', attempt_id: null, channel: null });
    expect(await dispatch.drain()).toEqual([]);
  });

  it('records opted_out, no_contact and throttled, and picks e-mail when that is the reachable channel', async () => {
    const { body: optedOut } = await api({
      method: 'POST',
      path: '/customer',
      key: tenant.key,
      body: { name: 'Sem pesquisa', phone: '11911112222', opt_out: true },
    });
    expect((await run(v2Payload({ customer: { id: optedOut.id } }))).transaction.survey.reason).toBe('opted_out');
    expect((await run(v2Payload({ customer: { externalId: 'NO-CONTACT', name: 'Anon' } }))).transaction.survey.reason).toBe('no_contact');
    const emailOnly = await run(v2Payload({ customer: { externalId: 'MAIL-ONLY', email: 'mail@example.com' } }));
    expect(emailOnly.transaction.survey).toMatchObject({ status: 'scheduled', channel: 'email' });

    const ecommerce = (externalId: string) =>
      v2Payload({ customer: { externalId: 'WINDOW-1', email: 'w@example.com' }, transaction: { journeyId: 2, externalId } });
    expect((await run(ecommerce('E-1'))).transaction.survey.status).toBe('scheduled');
    expect((await run(ecommerce('E-2'))).transaction.survey).toMatchObject({ status: 'not_sent', reason: 'throttled' });
    // The window is per journey: the same customer on journey 1 is surveyed.
    expect((await run(v2Payload({ customer: { externalId: 'WINDOW-1' } }))).transaction.survey.status).toBe('scheduled');
  });
});

describe('at-least-once delivery', () => {
  it('creates one transaction when the same message is delivered twice, or in one batch', async () => {
    const message = messageFor(tenant.tenantId, v2Payload());
    await consume([message, message]);
    await consume([message]);
    const outcome = (await api({ path: outcomePath(message), key: tenant.key })).body;
    const item = await getItem(keys.transaction(tenant.tenantId, transactionIdFor(message.requestId)));
    expect(item?.id).toBe(outcome.transactionId);
    const customers = await api({
      path: '/customer',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      query: { client_id: (message.payload as { customer: { externalId: string } }).customer.externalId },
    });
    expect(customers.body.data).toHaveLength(1);
  });

  it('answers a resent external id with the first transaction', async () => {
    const payload = v2Payload();
    const first = await run(payload);
    const again = await run({ ...payload, transaction: { ...(payload.transaction as object), amount: 1 } });
    expect(again.requestId).toBe(first.requestId);
    expect(again.outcome.transactionId).toBe(first.outcome.transactionId);
    expect(again.transaction.amount).toBe(99.9);
  });

  it('creates one customer when messages of one batch bring the same new external id', async () => {
    const customer = { externalId: 'SAME-NEW', name: 'Concorrente' };
    const messages = Array.from({ length: 5 }, () => messageFor(tenant.tenantId, v2Payload({ customer })));
    const { failed } = await consume(messages);
    expect(failed).toEqual([]);
    const ids = await Promise.all(messages.map(async (m) => (await api({ path: outcomePath(m), key: tenant.key })).body.transactionId));
    const transactions = await Promise.all(ids.map(async (id) => (await api({ path: `/transaction/${id}`, key: tenant.key })).body));
    expect(new Set(transactions.map((t) => t.customer_id)).size).toBe(1);
    const found = await api({
      path: '/customer',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      query: { client_id: 'SAME-NEW' },
    });
    expect(found.body.data).toHaveLength(1);
  });

  it('fails only the broken record of a batch and keeps the other nine', async () => {
    const good = Array.from({ length: 9 }, () => messageFor(tenant.tenantId, v2Payload()));
    const { failed } = await consume([...good.slice(0, 4), '{not json', ...good.slice(4)]);
    expect(failed).toEqual([4]);
    for (const m of good) {
      expect((await api({ path: outcomePath(m), key: tenant.key })).body.status).toBe('created');
    }
  });

  it('returns a record to the queue on a DynamoDB throttling error, and creates it on the retry', async () => {
    const message = messageFor(tenant.tenantId, v2Payload());
    let failures = 0;
    const stack = db().client.middlewareStack;
    stack.add(
      (next, context) => async (args) => {
        if (/^Put(Item)?Command$/.test(String(context.commandName)) && failures < 10) {
          failures++;
          throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
            name: 'ProvisionedThroughputExceededException',
            $metadata: {},
          });
        }
        return next(args);
      },
      { step: 'initialize', name: 'injectThrottling' },
    );
    try {
      expect((await consume([message])).failed).toEqual([0]);
      expect((await api({ path: outcomePath(message), key: tenant.key })).body.status).toBe('pending');
    } finally {
      stack.remove('injectThrottling');
    }
    expect((await consume([message])).failed).toEqual([]);
    expect((await api({ path: outcomePath(message), key: tenant.key })).body.status).toBe('created');
  });

  it('sends the survey messages of a batch together: ten scheduled surveys, one SendMessageBatch', async () => {
    await dispatch.drain();
    const messages = Array.from({ length: 10 }, () => messageFor(tenant.tenantId, v2Payload()));
    const requests: string[] = [];
    sqs().middlewareStack.add(
      (next, context) => async (args) => {
        requests.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize', name: 'countRequests' },
    );
    try {
      expect((await consume(messages)).failed).toEqual([]);
    } finally {
      sqs().middlewareStack.remove('countRequests');
    }
    expect(requests).toEqual(['SendMessageBatchCommand']);
    const sent = await dispatch.drain();
    expect(sent).toHaveLength(10);
    expect(new Set(sent.map((m) => m.transactionId)).size).toBe(10);
  });

  it('returns the records whose survey message could not be sent, and sends it on the retry', async () => {
    await dispatch.drain();
    const messages = Array.from({ length: 2 }, () => messageFor(tenant.tenantId, v2Payload()));
    const url = process.env[QUEUES.surveyDispatch.urlEnv];
    process.env[QUEUES.surveyDispatch.urlEnv] = `${url}-missing`;
    try {
      expect((await consume(messages)).failed).toEqual([0, 1]);
    } finally {
      process.env[QUEUES.surveyDispatch.urlEnv] = url;
    }
    // The transactions exist; only their survey messages are owed.
    for (const m of messages) expect((await api({ path: outcomePath(m), key: tenant.key })).body.status).toBe('created');
    expect(await dispatch.drain()).toEqual([]);
    expect((await consume(messages)).failed).toEqual([]);
    expect((await dispatch.drain()).map((m) => m.transactionId).sort()).toEqual(messages.map((m) => transactionIdFor(m.requestId)).sort());
  });
});
