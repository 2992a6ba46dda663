import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { loadHandler } from '../../infra/local/gateway.js';
import { invoke } from '../../infra/local/invoke.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { putDelivery } from '../../shared/adapters/tenant-repository.js';
import { keys } from '../../shared/keys.js';
import { logger } from '../../shared/logger.js';
import { inProcess } from '../support/api.js';
import { consume, sqsEvent, usePrivateQueue } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { messageFor, v2Payload } from '../support/transactions.js';
import { emailsOf } from '../support/mailbox.js';

/** Logs carry no key, token, cpf or phone: every line the service writes during these calls is captured and read. */
const api = inProcess();
let tenant: TestTenant;
const dispatch = usePrivateQueue('surveyDispatch');
const lines: string[] = [];

beforeAll(async () => {
  tenant = await newTenant();
  // Before anything reads the tenant's settings: a process keeps them for a minute.
  await putDelivery(tenant.tenantId, {
    quietHours: null,
    email: { from: 'pesquisa@loja.example' },
    whatsapp: { phoneNumberId: 'pn-log', template: 'pesquisa', language: 'pt_BR' },
  });
  logger.setLogLevel('DEBUG');
});
beforeEach(() => {
  // Each test turns logging up again: a handler's middleware may set the level back from the environment.
  logger.setLogLevel('DEBUG');
  const capture = (chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
});
afterAll(async () => {
  vi.restoreAllMocks();
  logger.setLogLevel('SILENT');
});

describe('logs', () => {
  it('name, on each line, the function that wrote it, however many functions run at once in the local process', async () => {
    const handler = async (event: { expected: string; wait: number }, context: Context) => {
      logger.addContext(context);
      await new Promise((resolve) => setTimeout(resolve, event.wait));
      logger.info('which function', { expected: event.expected });
    };
    lines.length = 0;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const functionId = i % 2 ? 'getStore' : 'listStores';
        return invoke(functionId, handler, { expected: functionId, wait: (i * 7) % 20 });
      }),
    );
    const written = lines.flatMap((line) => line.split('\n')).filter((line) => line.includes('which function'));
    expect(written).toHaveLength(20);
    for (const line of written) {
      const { function_name, expected } = JSON.parse(line) as { function_name: string; expected: string };
      expect(function_name).toBe(expected);
    }
  });

  it('never contain keys, user tokens, cpfs or phones, whatever happens', async () => {
    const cpf = '39053344705';
    const phone = '11912348765';
    await api({ path: '/public/store', key: 'ssk_secret-looking-but-unknown-key-0000000000' });
    await api({ path: '/public/customer', key: tenant.key, headers: { 'x-service-user-token': tenant.userToken }, query: { cpf } });
    await api({
      path: '/public/customer',
      key: tenant.key,
      headers: { 'x-service-user-token': 'sut_wrong-token-value-000000000000000000' },
      query: { phone },
    });
    await api({ method: 'POST', path: '/public/customer', key: tenant.key, body: { name: 'Log Test', cpf, phone } });
    await api({
      method: 'POST',
      path: '/public/customer',
      key: tenant.key,
      body: { name: 'Log Test', cpf: `${cpf}0`, phone: `${phone}999999999999` },
    });
    await api({
      method: 'POST',
      path: '/public/transaction',
      key: tenant.key,
      body: { store_id: 1, employee_id: 1, customer_integration: 'LOG-1', cpf, phone, journey: 'nope' },
    });
    await consume([messageFor(tenant.tenantId, v2Payload({ customer: { externalId: 'LOG-2', cpf, phone } })), '{broken']);

    const output = lines.join('');
    expect(output.length).toBeGreaterThan(0);
    expect(output).toContain('"level"');
    for (const secret of [
      tenant.key,
      tenant.userToken,
      'ssk_secret-looking-but-unknown-key',
      'sut_wrong-token-value',
      cpf,
      phone,
      `+55${phone}`,
    ]) {
      expect(output, secret).not.toContain(secret);
    }
  });

  it('never contain e-mails, phones, survey links or tokens when surveys go out and are answered', async () => {
    await dispatch.drain();
    const email = `log-${Date.now()}@example.com`;
    const phone = '+5511912340000';
    await fetch(`${inject('outboxUrl')}/faults`, {
      method: 'POST',
      body: JSON.stringify({ channel: 'whatsapp', to: phone, status: 400, count: 5 }),
    });
    for (const [journey, contact] of [
      ['ecommerce', { email }],
      ['loja', { phone }],
    ] as const)
      await api({
        method: 'POST',
        path: '/public/transaction',
        key: tenant.key,
        body: { store_id: 1, employee_id: 1, customer_integration: `LOG-${journey}`, journey, ...contact },
      });
    const messages = await dispatch.drain();
    expect(messages).toHaveLength(2);
    lines.length = 0;
    logger.setLogLevel('DEBUG');
    // Loaded as the local stack loads a consumer, so that it logs through the logger this file turned up.
    const dispatcher = (await loadHandler('queue/survey-dispatcher.ts')) as (event: SQSEvent, context: unknown) => Promise<unknown>;
    await invoke('surveyDispatcher', dispatcher, sqsEvent(messages, { queue: 'SurveyDispatchQueue' }));
    const emails = await emailsOf<{ destination: { to: string[] }; body: { text: string } }>(inject('sesUrl'));
    const link = /(http\S+\/s\/([\w-]{44}))/.exec(emails.find((e) => e.destination.to.includes(email))!.body.text)!;
    const path = new URL(link[1]!).pathname;
    await api({ path, query: { score: 3 } });
    await api({ method: 'POST', path, body: 'score=99', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    await api({ method: 'POST', path, body: 'score=4', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    await api({ path: `${path.slice(0, -1)}A` });

    const output = lines.join('');
    expect(output).toContain('Survey sent');
    expect(output).toContain('Survey not delivered');
    for (const secret of [email, phone, phone.slice(3), link[1]!, link[2]!]) expect(output, secret).not.toContain(secret);
  });

  it('name no client_id when a sale races an erasure of its customer', async () => {
    // The erasure's window as a sale sees it: the client_id's guard still stands (its create is refused) while the
    // customer it names is already the erasure's marker (its find answers nothing). The record goes back to the queue.
    const clientId = '52998224725';
    const created = await api({ method: 'POST', path: '/public/customer', key: tenant.key, body: { name: 'Race', client_id: clientId } });
    expect(created.status, created.text).toBe(200);
    const { client, tableName } = db();
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.entity(tenant.tenantId, 'CUSTOMER', created.body.id), entity: 'CUSTOMER_ERASED', id: created.body.id },
      }),
    );
    lines.length = 0;
    logger.setLogLevel('INFO');
    const sale = messageFor(tenant.tenantId, v2Payload({ customer: { externalId: clientId, name: 'Race' } }));
    expect((await consume([sale])).failed).toHaveLength(1);
    const output = lines.join('');
    expect(output).toContain('Transaction record failed');
    expect(output).not.toContain(clientId);
  });

  it('at the default level, a consumer writes one line per batch with its counts (the records at DEBUG)', async () => {
    const messages = [1, 2, 3].map(() => messageFor(tenant.tenantId, v2Payload()));
    const rejected = messageFor(tenant.tenantId, v2Payload({ transaction: { journeySlug: 'no-such-journey' } }));
    lines.length = 0;
    logger.setLogLevel('INFO');
    expect((await consume([...messages, rejected, messages[0]])).failed).toEqual([]);
    const written = lines
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const logged = written.filter((line) => typeof line.level === 'string');
    expect(logged.map((line) => line.message)).toEqual(['Transaction batch']);
    expect(logged[0]).toMatchObject({ level: 'INFO', records: 5, created: 3, duplicate: 1, rejected: 1, failed: 0 });
    await dispatch.drain();
  });
});
