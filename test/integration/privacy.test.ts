import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '../../infra/local/invoke.js';
import { handler as privacyConsumer } from '../../functions/queue/privacy-requests.js';
import { caseOpener } from '../../shared/adapters/wiring/cases.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { dataSubjects } from '../../shared/adapters/privacy-repository.js';
import { transactionRepository } from '../../shared/adapters/transaction-repository.js';
import type { TransactionRecord } from '../../shared/transaction-record.js';
import { keys } from '../../shared/keys.js';
import { erase, newPrivacyRequestId } from '../../shared/privacy/service.js';
import { deliverSurvey } from '../../shared/surveys/delivery.js';
import type { DispatchMessage } from '../../shared/surveys/dispatch.js';
import { inProcess } from '../support/api.js';
import { deliveryPorts, linkConfig } from '../support/delivery.js';
import { sqsEvent, usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

const api = inProcess('public');
const chatbot = inProcess('chatbot');
const privacyQueue = usePrivateQueue('privacy');
const dispatch = usePrivateQueue('surveyDispatch');
usePrivateQueue('cases');
// An answer's analysis too: the stack's analyser would write it whenever it comes (the strip test reads the item after).
usePrivateQueue('analysis');
let tenant: TestTenant;
let other: TestTenant;

const CPF = '52998224725';
const clientId = `P-${randomUUID().slice(0, 8)}`;
const email = `titular-${randomUUID().slice(0, 8)}@example.com`;
const today = new Date().toISOString().slice(0, 10);

const request = (body: unknown, who: TestTenant = tenant, token = who.userToken) =>
  api({ method: 'POST', path: '/public/privacy/requests', key: who.key, headers: { 'x-service-user-token': token }, body });
const read = (id: string, who: TestTenant = tenant, token = who.userToken) =>
  api({ path: `/public/privacy/requests/${id}`, key: who.key, headers: { 'x-service-user-token': token } });
const exported = (id: string) =>
  api({ path: `/public/privacy/requests/${id}/export`, key: tenant.key, headers: { 'x-service-user-token': tenant.userToken } });
const results = () =>
  api({
    path: '/public/results',
    key: tenant.key,
    headers: { 'x-service-user-token': tenant.userToken },
    query: { journey: 'loja', from: today, to: today, group_by: 'store' },
  });

/** Runs the privacy consumer on what was queued, as the event source would; answers how many records it had. */
async function work(): Promise<number> {
  const bodies = await privacyQueue.drain();
  if (bodies.length) {
    const { batchItemFailures } = await invoke('privacyRequests', privacyConsumer, sqsEvent(bodies, { queue: 'PrivacyQueue' }));
    expect(batchItemFailures).toEqual([]);
  }
  return bodies.length;
}

const item = async (key: { pk: string; sk: string }) =>
  (await db().client.send(new GetCommand({ TableName: db().tableName, Key: key }))).Item;

let customerId: number;
let sales: number[];
let unanswered: TransactionRecord;

/** A transaction of the customer's, as a consumer that read them before their erasure would write it. */
const lateCopyOf = (id: number): TransactionRecord => ({
  ...unanswered,
  transaction: { ...unanswered.transaction, id, rating: null, created_at: new Date().toISOString() },
  answer: null,
});
let pending: DispatchMessage | undefined;

beforeAll(async () => {
  [tenant, other] = await Promise.all([newTenant(), newTenant()]);
  const customer = {
    customer_integration: clientId,
    name: 'Titular Teste',
    email,
    cpf: CPF,
    phone: '11987650000',
    locale: 'es',
    param_nota: 'entregar para Titular Teste',
  };
  sales = [await registerSale(api, tenant.key, customer), await registerSale(api, tenant.key, customer)];
  await dispatch.drain();
  // The first sale's survey is answered through the chatbot, with a comment and the respondent's name and phone.
  const answered = await chatbot({
    method: 'POST',
    path: '/survey',
    key: tenant.chatbotKey,
    body: {
      transactionId: sales[0],
      attemptId: 1,
      journey: 'loja',
      score: 9,
      classes: [],
      comment: 'A Joana me atendeu muito bem',
      name: 'Titular',
      phone: '11987650000',
    },
  });
  expect(answered.status, answered.text).toBe(201);
  // A third sale whose survey is still waiting to go out when the customer is erased.
  sales.push(await registerSale(api, tenant.key, customer));
  [pending] = (await dispatch.drain()) as unknown as DispatchMessage[];
  customerId = (await api({ path: `/public/transaction/${sales[0]}`, key: tenant.key })).body.customer_id as number;
  unanswered = (await transactionRepository.findById(tenant.tenantId, sales[1]!))!;
});

describe('privacy requests: export', () => {
  let id: string;

  it('is accepted as pending (202), then done with the customers the identifiers match', async () => {
    const res = await request({ type: 'export', cpf: '529.982.247-25' });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({ type: 'export', status: 'pending', subjects: [], finished_at: null });
    expect(res.body).not.toHaveProperty('cpf');
    id = res.body.id as string;
    expect((await read(id)).body.status).toBe('pending');
    expect((await exported(id)).status).toBe(409);

    expect(await work()).toBe(1);
    const done = await read(id);
    expect(done.body).toMatchObject({ status: 'done', subjects: [customerId], errors: [] });
    expect(Date.parse(done.body.export_expires_at as string) - Date.parse(done.body.finished_at as string)).toBe(7 * 86_400_000);
    // The identifiers served to find the customers; the request does not keep them.
    const stored = await item(keys.privacyRequest(tenant.tenantId, id));
    expect(stored).not.toHaveProperty('identifiers');
  });

  it('exports the customer, its transactions with their attempts, answer and comment, and the requests that named it', async () => {
    const res = await exported(id);
    expect(res.status, res.text).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const [subject] = res.body.customers as Record<string, any>[];
    expect(subject!.customer).toMatchObject({
      id: customerId,
      cpf: CPF,
      email,
      client_id: clientId,
      name: 'Titular Teste',
      phone: '+5511987650000',
      locale: 'es',
    });
    expect(subject!.customer).not.toHaveProperty('pk');
    expect(subject!.transactions.map((t: { id: number }) => t.id).sort()).toEqual([...sales].sort());
    const answered = subject!.transactions.find((t: { id: number }) => t.id === sales[0]);
    expect(answered).toMatchObject({
      rating: { score: 9, comment: 'A Joana me atendeu muito bem' },
      respondent: { name: 'Titular', phone: '+5511987650000' },
      customer_name: 'Titular Teste',
    });
    expect(answered.attempts).toEqual(expect.arrayContaining([expect.objectContaining({ attempt_id: 1 })]));
    expect(subject!.privacy_requests).toEqual([expect.objectContaining({ request_id: id, type: 'export' })]);
    expect(subject!.transactions_truncated).toBe(false);
  });

  it('finds a person by either phone: the main one or the second', async () => {
    const second = '11912340000';
    const created = await api({ method: 'POST', path: '/public/customer', key: tenant.key, body: { name: 'Dois Fones', phone2: second } });
    expect(created.status, created.text).toBe(200);
    const res = await request({ type: 'export', phone: second });
    await work();
    expect((await read(res.body.id as string)).body).toMatchObject({ status: 'done', subjects: [created.body.id] });
  });

  it('matches nothing of another tenant, whose requests and exports this tenant cannot read', async () => {
    const res = await request({ type: 'export', cpf: CPF, email, client_id: clientId }, other);
    expect(res.status).toBe(202);
    await work();
    expect((await read(res.body.id as string, other)).body).toMatchObject({
      status: 'done',
      subjects: [],
      errors: [{ path: '', message: 'no customer matches the identifiers given' }],
    });
    expect((await read(id, other)).status).toBe(404);
  });
});

describe('the access log', () => {
  const access = (customer: number, who: TestTenant = tenant, query: Record<string, string | number> = {}, token = who.userToken) =>
    api({
      path: '/public/privacy/access',
      key: who.key,
      headers: { 'x-service-user-token': token },
      query: { customer, ...query },
    });

  it("records each read of a customer's personal data: when, which key, which user, which request", async () => {
    const read = await api({ path: `/public/customer/${customerId}`, key: tenant.key });
    expect(read.status).toBe(200);
    const listed = await api({
      path: '/public/customer',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      query: { cpf: CPF },
    });
    expect(listed.body.data).toHaveLength(1);

    const res = await access(customerId);
    expect(res.status, res.text).toBe(200);
    const entries = res.body.data as { at: string; operation: string; key_id: string | null; user: string | null; request_id: string }[];
    // Newest first: the list, the get, and the export made earlier in this file.
    expect(entries.map((entry) => entry.operation)).toEqual(['listCustomers', 'getCustomer', 'getPrivacyExport']);
    expect(entries[0]).toMatchObject({ user: 'full', request_id: listed.headers['x-request-id'] });
    expect(entries[1]).toMatchObject({ user: null, request_id: read.headers['x-request-id'] });
    expect(entries[2]).toMatchObject({ user: 'full' });
    for (const entry of entries) expect(entry.key_id).toMatch(/^[A-Za-z0-9_-]{6,}$/);
    expect(JSON.stringify(entries)).not.toContain(tenant.key);

    // Pages back from the last entry seen.
    const older = await access(customerId, tenant, { limit: 1, before: entries[0]!.at });
    expect(older.body.data.map((entry: { operation: string }) => entry.operation)).toEqual(['getCustomer']);
  });

  it("shows another tenant nothing of this tenant's reads, and needs a user token with every store", async () => {
    expect((await access(customerId, other)).body.data).toEqual([]);
    expect((await access(customerId, tenant, {}, tenant.limitedToken)).status).toBe(401);
    expect((await access(0)).status).toBe(422);
  });
});

describe('privacy requests: erase', () => {
  let before: unknown;
  let id: string;
  let late: number;
  let erasedAt: unknown;

  it('stays pending after its first pass, and is done once its second pass stripped a sale registered meanwhile', async () => {
    before = (await results()).body;
    const res = await request({ type: 'erase', client_id: clientId });
    expect(res.status, res.text).toBe(202);
    id = res.body.id as string;
    await work();
    expect((await read(id)).body).toMatchObject({ status: 'pending', subjects: [customerId], finished_at: null });
    // Results count what they counted.
    expect((await results()).body).toEqual(before);
    // The second pass is queued, delayed.
    const { Attributes } = await new SQSClient({}).send(
      new GetQueueAttributesCommand({ QueueUrl: privacyQueue.url, AttributeNames: ['ApproximateNumberOfMessagesDelayed'] }),
    );
    expect(Number(Attributes?.ApproximateNumberOfMessagesDelayed)).toBe(1);

    // A sale whose consumer read the customer before the erasure, and wrote after the first pass listed the customer's
    // transactions: it holds the copies, unmarked, and its survey waits to go out.
    erasedAt = (await item(keys.transaction(tenant.tenantId, sales[0]!)))!.erased_at;
    late = (await transactionRepository.putCreated(tenant.tenantId, { requestKey: `late-${randomUUID()}`, build: lateCopyOf })).record
      .transaction.id;
    expect(await item(keys.transaction(tenant.tenantId, late))).toMatchObject({
      customer_name: 'Titular Teste',
      survey_contact: expect.stringContaining('987650000'),
    });
    // Its survey is not sent: the customer it names is a marker (the dispatcher reads it).
    expect(await deliverSurvey({ message: { ...pending!, transactionId: late }, ports: deliveryPorts, config: linkConfig() })).toBe(
      'missing',
    );
    expect(await item(keys.transaction(tenant.tenantId, late))).toMatchObject({ survey: { status: 'scheduled' } });
    expect((await read(id)).body.status).toBe('pending');

    // The second pass comes ERASURE_RECHECK_SECONDS later (3 s in the tests' stack).
    const started = Date.now();
    while (!(await work())) {
      expect(Date.now() - started, 'the second pass never came').toBeLessThan(20_000);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect((await read(id)).body).toMatchObject({ status: 'done', subjects: [customerId], errors: [] });
    const stripped = await item(keys.transaction(tenant.tenantId, late));
    expect(stripped).toMatchObject({ customer_name: null, survey_contact: null, erased_by: id });
    expect(JSON.stringify(stripped)).not.toMatch(new RegExp(`${email}|Titular|987650000`));
    // What the first pass erased is left as it was.
    expect((await item(keys.transaction(tenant.tenantId, sales[0]!)))!.erased_at).toBe(erasedAt);
  });

  it('removes the personal data from the customer and what its transactions copied, keeping scores and counts', async () => {
    // The customer reads as not found (its id stays, marked erased), and no search finds it.
    expect((await api({ path: `/public/customer/${customerId}`, key: tenant.key })).status).toBe(404);
    for (const query of [{ cpf: CPF }, { email }, { client_id: clientId }, { name: 'Titular' }] as Record<string, string>[]) {
      const list = await api({ path: '/public/customer', key: tenant.key, headers: { 'x-service-user-token': tenant.userToken }, query });
      expect(list.body.data, JSON.stringify(query)).toEqual([]);
    }
    const marker = await item(keys.entity(tenant.tenantId, 'CUSTOMER', customerId));
    expect(marker).toEqual(expect.objectContaining({ id: customerId, erased_by: id, entity: 'CUSTOMER_ERASED' }));
    expect(JSON.stringify(marker)).not.toMatch(new RegExp(`${CPF}|${email}|Titular|${clientId}`));
    expect(marker).not.toHaveProperty('locale');

    // The transactions keep their score; the copies of the customer's name and contacts, the comment and the respondent are gone.
    for (const saleId of sales) {
      const stored = await item(keys.transaction(tenant.tenantId, saleId));
      expect(stored).toMatchObject({ customer_name: null, survey_contact: null, erased_by: id, customer_id: customerId });
      expect(stored).not.toHaveProperty('survey_contacts');
      expect(stored!.params).toEqual({});
      expect(JSON.stringify(stored)).not.toMatch(new RegExp(`${email}|Titular|Joana|11987650000`));
    }
    const answered = await item(keys.transaction(tenant.tenantId, sales[0]!));
    expect(answered).toMatchObject({ rating: { score: 9, comment: null }, respondent: { name: null, phone: null } });
    const evaluation = await api({ path: `/public/rating/formbuilder/${sales[0]}`, key: tenant.key });
    expect(JSON.stringify(evaluation.body)).not.toContain('Joana');

    // The record of who read the data outlives the data.
    const reads = await api({
      path: '/public/privacy/access',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      query: { customer: customerId },
    });
    expect(reads.body.data.length).toBeGreaterThanOrEqual(3);
  });

  it('sends no survey attempt that was still waiting', async () => {
    expect(pending).toBeDefined();
    expect(await deliverSurvey({ message: pending!, ports: deliveryPorts, config: linkConfig() })).toBe('missing');
    const stored = await item(keys.transaction(tenant.tenantId, pending!.transactionId));
    expect((stored!.survey as { status: string }).status).toBe('scheduled');
    // Read through the API, it says why: not sent, for want of a contact.
    const shown = await api({ path: `/public/transaction/${pending!.transactionId}`, key: tenant.key });
    expect(shown.body.survey).toMatchObject({ status: 'not_sent', reason: 'no_contact' });
  });

  it('takes no new answer on an erased transaction (its comment would bring personal data back)', async () => {
    const late = await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: { transactionId: sales[1], attemptId: 1, journey: 'loja', score: 3, classes: [], comment: 'Sou o Titular de novo' },
    });
    expect(late.status).toBe(404);
    expect(JSON.stringify(await item(keys.transaction(tenant.tenantId, sales[1]!)))).not.toContain('Titular');
  });

  it('lets the same client_id make a new customer afterwards', async () => {
    const saleId = await registerSale(api, tenant.key, { customer_integration: clientId, name: 'Outra Pessoa', email: `novo-${email}` });
    const { body } = await api({ path: `/public/transaction/${saleId}`, key: tenant.key });
    expect(body.customer_id).not.toBe(customerId);
    const fresh = await api({
      path: '/public/customer',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      query: { client_id: clientId },
    });
    expect(fresh.body.data).toEqual([expect.objectContaining({ id: body.customer_id, name: 'Outra Pessoa' })]);
  });

  it('is idempotent: a redelivered request does nothing more, and erasing again changes nothing', async () => {
    await erase(dataSubjects, tenant.tenantId, { customerId, mark: { requestId: id, at: new Date().toISOString() } });
    const marker = await item(keys.entity(tenant.tenantId, 'CUSTOMER', customerId));
    expect(marker).toMatchObject({ entity: 'CUSTOMER_ERASED', erased_by: id });
    const { batchItemFailures } = await invoke(
      'privacyRequests',
      privacyConsumer,
      sqsEvent([{ version: 1, tenantId: tenant.tenantId, requestId: id }], { queue: 'PrivacyQueue' }),
    );
    expect(batchItemFailures).toEqual([]);
    expect((await read(id)).body).toMatchObject({ status: 'done', subjects: [customerId] });
  });

  it('has no export', async () => {
    const res = await exported(id);
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe(`Privacy request ${id} is an erasure: it has no export.`);
  });
});

describe('privacy requests: who may ask, and what', () => {
  it('need a user token with every store (401 otherwise)', async () => {
    expect((await request({ type: 'export', cpf: CPF }, tenant, tenant.limitedToken)).status).toBe(401);
    expect((await request({ type: 'export', cpf: CPF }, tenant, 'sut_not-a-token')).status).toBe(401);
  });

  it('say what is wrong with a request (422)', async () => {
    const none = await request({ type: 'export' });
    expect(none.status).toBe(422);
    expect(none.body.errors[0].message).toBe('send at least one of cpf, email, phone, client_id');
    const wrong = await request({ type: 'delete', cpf: '123' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['cpf', 'type']);
    expect((await read('pr_unknown')).status).toBe(400);
    expect((await read(`pr_${'a'.repeat(22)}`)).status).toBe(404);
  });
});

describe('a privacy request that cannot be completed', () => {
  it('is tried again by the queue, and marked failed on its fifth try, telling the tenant to submit it again', async () => {
    const id = newPrivacyRequestId();
    // A request item the service cannot read (its subjects are not a list): every try fails.
    await db().client.send(
      new PutCommand({
        TableName: db().tableName,
        Item: {
          ...keys.privacyRequest(tenant.tenantId, id),
          entity: 'PRIVACY_REQUEST',
          id,
          type: 'erase',
          status: 'pending',
          identifiers: { cpf: CPF },
          subjects: 'not a list',
          requested_by: 'full',
          created_at: new Date().toISOString(),
          finished_at: null,
          errors: [],
        },
      }),
    );
    const message = [{ version: 1, tenantId: tenant.tenantId, requestId: id }];
    const first = await invoke('privacyRequests', privacyConsumer, sqsEvent(message, { queue: 'PrivacyQueue' }));
    expect(first.batchItemFailures).toHaveLength(1);
    expect((await item(keys.privacyRequest(tenant.tenantId, id)))!.status).toBe('pending');

    const last = await invoke('privacyRequests', privacyConsumer, sqsEvent(message, { queue: 'PrivacyQueue', receiveCount: 5 }));
    expect(last.batchItemFailures).toHaveLength(1);
    const res = await read(id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      status: 'failed',
      subjects: [],
      errors: [{ path: '', message: 'the request could not be completed; submit it again' }],
    });
    expect(res.body.finished_at).toEqual(expect.any(String));
  });
});

describe("an erasure's strip of one transaction", () => {
  it("holds only while the transaction holds what was read (an answer, a provider's words since), and strips them on a new read", async () => {
    const who = `lia-${randomUUID().slice(0, 8)}`;
    const saleId = await registerSale(api, tenant.key, { name: 'Lia Faixa', email: `${who}@example.com` });
    const [read] = await dataSubjects.copiesOf(tenant.tenantId, [saleId]);
    expect(read).toMatchObject({ transactionId: saleId, holdsCopies: true });

    // After the read: an answer with a comment and a respondent, and a provider's refusal that names the address.
    const answered = await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: { transactionId: saleId, attemptId: 1, journey: 'loja', score: 7, classes: [], comment: 'Lia Faixa aqui', name: 'Lia' },
    });
    expect(answered.status, answered.text).toBe(201);
    expect(await dataSubjects.strip(tenant.tenantId, read!)).toBe(false);
    await db().client.send(
      new UpdateCommand({
        TableName: db().tableName,
        Key: keys.transaction(tenant.tenantId, saleId),
        UpdateExpression: 'SET survey.detail = :detail',
        ExpressionAttributeValues: { ':detail': `MessageRejected: ${who}@example.com is not verified` },
      }),
    );

    const [again] = await dataSubjects.copiesOf(tenant.tenantId, [saleId]);
    expect(await dataSubjects.strip(tenant.tenantId, again!)).toBe(true);
    const stored = await item(keys.transaction(tenant.tenantId, saleId));
    expect(JSON.stringify(stored)).not.toMatch(new RegExp(`Lia|${who}`));
    expect(stored).toMatchObject({ rating: { score: 7, comment: null }, respondent: { name: null, phone: null }, params: {} });
    expect(stored!.survey).not.toHaveProperty('detail');
    expect((await dataSubjects.copiesOf(tenant.tenantId, [saleId]))[0]!.holdsCopies).toBe(false);
  });
});

/** Every item of a tenant as stored (a Scan: in a test only, never on a request path). */
async function everyItemOf(tenantId: number): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db().client.send(
      new ScanCommand({
        TableName: db().tableName,
        FilterExpression: 'begins_with(pk, :p) OR pk = :t',
        ExpressionAttributeValues: { ':p': `T#${tenantId}#`, ':t': `T#${tenantId}` },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

describe("privacy requests: a case's notes", () => {
  it("are in the customer's export, and no item of the tenant names the customer once their erasure is done", async () => {
    // Prepare: a customer whose answer opened a case, and a manager's note on it naming them, their phone and e-mail.
    const who = randomUUID().slice(0, 8);
    const name = `Eva ${who}`;
    const phone = `1196${String(Date.now()).slice(-7)}`;
    const mail = `eva-${who}@example.com`;
    const saleId = await registerSale(api, tenant.key, { customer_integration: `N-${who}`, name, email: mail, phone });
    const answered = await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: { transactionId: saleId, attemptId: 1, journey: 'loja', score: 1, classes: [], comment: 'Pessimo' },
    });
    expect(answered.status, answered.text).toBe(201);
    expect(await caseOpener.openFromAnswer(tenant.tenantId, { transactionId: saleId, version: 1 })).toBeDefined();
    const note = `Liguei para ${name} no +55${phone}, e-mail ${mail}`;
    const opened = await api({ path: `/public/cases/${saleId}`, key: tenant.key, headers: { 'x-service-user-token': tenant.userToken } });
    const noted = await api({
      method: 'PATCH',
      path: `/public/cases/${saleId}`,
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken, 'if-match': `"${opened.body.version}"` },
      body: { status: 'in_progress', note },
    });
    expect(noted.status, noted.text).toBe(200);

    // Act: an export, then an erasure through both its passes.
    const asked = await request({ type: 'export', email: mail });
    await work();
    const copy = await exported(asked.body.id as string);
    const erasure = await request({ type: 'erase', email: mail });
    const started = Date.now();
    while ((await read(erasure.body.id as string)).body.status !== 'done') {
      expect(Date.now() - started, 'the erasure never finished').toBeLessThan(20_000);
      await work();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }

    // Assess
    expect(copy.status, copy.text).toBe(200);
    const [subject] = copy.body.customers as Record<string, any>[];
    expect(subject!.cases).toEqual([expect.objectContaining({ id: saleId, notes: [expect.objectContaining({ text: note })] })]);
    const named = new RegExp(`${who}|${phone.slice(2)}`);
    const holding = (await everyItemOf(tenant.tenantId)).filter((item) => named.test(JSON.stringify(item)));
    expect(holding.map((item) => `${item.pk} ${item.sk}`)).toEqual([]);
    const kept = await api({ path: `/public/cases/${saleId}`, key: tenant.key, headers: { 'x-service-user-token': tenant.userToken } });
    expect(kept.body).toMatchObject({ status: 'in_progress', score: 1, notes: [], customer: { name: null }, comment: null });
    expect(kept.body.history.map((entry: { action: string }) => entry.action)).toEqual(['opened', 'status', 'note', 'erased']);
  });
});
