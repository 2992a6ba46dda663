import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { keys } from '../../shared/keys.js';
import { overHttp } from '../support/api.js';
import { until } from '../support/mailbox.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/** Through the local stack: the chatbot answers over HTTP, the local pollers run the analysis queue's consumer. */
const api = overHttp('public');
const chatbot = overHttp('chatbot');
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await newTenant();
});

describe('the analysis of an answered comment, through the local stack', () => {
  it('shows its themes and sentiment on the answer within a minute (here: 15 s at most)', async () => {
    const id = await registerSale(api, tenant.key, { store_id: 1, phone: '11987654321' });
    const comment = 'A fila estava enorme, esperei 40 minutos no caixa';
    const answered = await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: { transactionId: id, attemptId: 1, journey: 'loja', score: 2, classes: [], comment },
    });
    expect(answered.status).toBe(201);
    const analysis = await until(async () => {
      const { Item } = await db().client.send(new GetCommand({ TableName: db().tableName, Key: keys.transaction(tenant.tenantId, id) }));
      return Item?.analysis as { themes: string[]; sentiment: string } | undefined;
    }, 'the analysis of the answer');
    expect(analysis).toMatchObject({ themes: expect.arrayContaining(['wait']), sentiment: 'negative' });
  });
});
