import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as privacyConsumer } from '../../functions/queue/privacy-requests.js';
import { lambdaContext } from '../../infra/local/events.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { keys } from '../../shared/keys.js';
import { inProcess } from '../support/api.js';
import { sqsEvent, usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { FULL } from './fixtures.js';

/**
 * An erasure that runs while the customer answers and corrects surveys: once it reports done, none of the
 * customer's transactions holds a personal copy, whatever answer landed while it worked (issue 29, H1).
 */

const api = inProcess('public');
const chatbot = inProcess('chatbot');
const privacyQueue = usePrivateQueue('privacy');
usePrivateQueue('surveyDispatch');

/** Transactions of each customer, and customers erased one after the other, each raced by answers. */
const SALES = FULL ? 200 : 30;
const ROUNDS = FULL ? 5 : 2;
const WORKERS = 6;

let tenant: TestTenant;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  tenant = await newTenant();
});

interface Subject {
  clientId: string;
  name: string;
  email: string;
  phone: string;
  sales: number[];
}

async function subject(round: number): Promise<Subject> {
  const unique = randomUUID().slice(0, 8);
  const person = {
    clientId: `R-${unique}`,
    name: `Raquel Corrida${unique}`,
    email: `corrida-${unique}@example.com`,
    phone: `1198${String(round).padStart(3, '0')}${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}`,
  };
  const sale = () =>
    registerSale(api, tenant.key, { customer_integration: person.clientId, name: person.name, email: person.email, phone: person.phone });
  // The first sale creates the customer; the others reuse it.
  const sales: number[] = [await sale()];
  for (let i = 1; i < SALES; i += 10) sales.push(...(await Promise.all(Array.from({ length: Math.min(10, SALES - i) }, sale))));
  return { ...person, sales };
}

/** Answers (POST) the subject's surveys in random order, then corrects them (PUT), until told to stop. */
function answering(who: Subject, statuses: number[]) {
  let stop = false;
  const order = [...who.sales].sort(() => Math.random() - 0.5);
  let next = 0;
  const answered: number[] = [];
  const body = (transactionId: number, n: number) => ({
    transactionId,
    attemptId: 1,
    journey: 'loja',
    score: n % 11,
    classes: [],
    comment: `Comentario ${n} de ${who.name}`,
    name: who.name,
    phone: who.phone,
  });
  const worker = async () => {
    for (let n = 0; !stop; n++) {
      const fresh = next < order.length ? order[next++] : undefined;
      const id = fresh ?? answered[n % Math.max(answered.length, 1)];
      if (id === undefined) break;
      const res = await chatbot({ method: fresh ? 'POST' : 'PUT', path: '/survey', key: tenant.chatbotKey, body: body(id, n) });
      statuses.push(res.status);
      if (fresh && res.status === 201) answered.push(id);
      await pause(Math.random() * 4);
    }
  };
  const running = Promise.all(Array.from({ length: WORKERS }, worker));
  return async () => {
    stop = true;
    await running;
  };
}

const stored = async (tenantId: number, id: number) =>
  (await db().client.send(new GetCommand({ TableName: db().tableName, Key: keys.transaction(tenantId, id), ConsistentRead: true }))).Item;

describe('an erasure raced by answers and corrections', () => {
  it(
    'leaves no personal copy on any transaction of the subject once it reports done, and answers no 5xx',
    async () => {
      const leftovers: string[] = [];
      const statuses: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const who = await subject(round);
        const request = await api({
          method: 'POST',
          path: '/public/privacy/requests',
          key: tenant.key,
          query: { token: tenant.userToken },
          body: { type: 'erase', client_id: who.clientId },
        });
        expect(request.status, request.text).toBe(202);
        const messages = await privacyQueue.drain();
        // Answers are in flight before the erasure starts and go on until it is done.
        const stop = answering(who, statuses);
        await pause(5);
        const { batchItemFailures } = await privacyConsumer(
          sqsEvent(messages, { queue: 'PrivacyQueue' }),
          lambdaContext('privacyRequests'),
        );
        await stop();
        expect(batchItemFailures).toEqual([]);
        const done = await api({
          path: `/public/privacy/requests/${request.body.id}`,
          key: tenant.key,
          query: { token: tenant.userToken },
        });
        expect(done.body.status).toBe('done');
        await privacyQueue.drain(); // the second pass is not run: the first must leave nothing

        const personal = new RegExp([who.name, who.email, who.phone.slice(2), 'Comentario'].join('|'));
        for (const id of who.sales) {
          const item = await stored(tenant.tenantId, id);
          const found = personal.exec(JSON.stringify(item));
          if (found) leftovers.push(`transaction ${id} holds "${found[0]}"`);
        }
      }
      expect(statuses.filter((status) => status >= 500)).toEqual([]);
      // Answers did land during the erasures (the race was run), and nothing personal outlived them.
      expect(statuses.filter((status) => status === 201 || status === 200).length).toBeGreaterThan(0);
      expect(leftovers).toEqual([]);
    },
    FULL ? 600_000 : 120_000,
  );
});
