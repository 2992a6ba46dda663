import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { logger } from '../../shared/logger.js';
import { inProcess } from '../support/api.js';
import { whileFailing } from '../support/faults.js';
import { consume, usePrivateQueue } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { messageFor, outcomePath, v2Payload } from '../support/transactions.js';

/** The transaction consumer when the table fails: what it logs, and the outcome it records on the last receive. */
const api = inProcess('public');
usePrivateQueue('transactions');
usePrivateQueue('surveyDispatch');
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await newTenant();
});

describe('consumer failures', () => {
  const lines: string[] = [];
  beforeAll(() => {
    logger.setLogLevel('INFO');
    const capture = (chunk: unknown) => {
      lines.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  });
  afterAll(() => {
    vi.restoreAllMocks();
    logger.setLogLevel('SILENT');
  });

  it('logs every failed record with its request id, and records `failed` on the last receive', async () => {
    const cpf = '39053344705';
    const message = messageFor(tenant.tenantId, v2Payload({ customer: { externalId: `F-${Date.now()}`, cpf } }));
    const broken = Object.assign(new Error('The table is gone'), { name: 'ResourceNotFoundException', $metadata: {} });

    await whileFailing(/^Put/, broken, async () => {
      expect((await consume([message])).failed).toEqual([0]);
      expect((await api({ path: outcomePath(message), key: tenant.key })).body.status).toBe('pending');
    });
    const failure = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.message === 'Transaction record failed' && line.requestId === message.requestId);
    expect(failure).toMatchObject({
      tenantId: tenant.tenantId,
      requestId: message.requestId,
      receives: 1,
      error: { name: 'ResourceNotFoundException' },
    });
    expect(lines.join('')).not.toContain(cpf);

    await whileFailing(/^Put/, broken, async () => {
      expect((await consume([message], { receiveCount: 4 })).failed).toEqual([0]);
    });
    // The failure outcome itself is one PutItem: it is written once the table answers again, on the fifth receive.
    const stack = db().client.middlewareStack;
    let puts = 0;
    stack.add(
      (next, context) => async (args) => {
        // The batch's analytics list (its own PutItem, whose failure leaves each transaction to list itself) is not counted.
        const list = (args.input as { Item?: { entity?: string } }).Item?.entity === 'SURVEY_LIST';
        if (/^Put/.test(String(context.commandName)) && !list && puts++ === 0) throw broken;
        return next(args);
      },
      { step: 'initialize', name: 'failFirstPut' },
    );
    try {
      expect((await consume([message], { receiveCount: 5 })).failed).toEqual([0]);
    } finally {
      stack.remove('failFirstPut');
    }
    expect((await api({ path: outcomePath(message), key: tenant.key })).body).toMatchObject({
      status: 'failed',
      transactionId: null,
      errors: [{ path: 'request' }],
    });

    // A redrive that succeeds replaces the failure with the transaction.
    expect((await consume([message], { receiveCount: 1 })).failed).toEqual([]);
    expect((await api({ path: outcomePath(message), key: tenant.key })).body.status).toBe('created');
  });
});
