import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '../../shared/logger.js';
import { inProcess } from '../support/api.js';
import { consume, usePrivateQueue } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { messageFor, v2Payload } from '../support/transactions.js';

/** Logs carry no key, token, cpf or phone: every line the service writes during these calls is captured and read. */
const api = inProcess();
let tenant: TestTenant;
usePrivateQueue('surveyDispatch');
const lines: string[] = [];

beforeAll(async () => {
  tenant = await newTenant();
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
  it('never contain keys, user tokens, cpfs or phones, whatever happens', async () => {
    const cpf = '39053344705';
    const phone = '11912348765';
    await api({ path: '/public/store', key: 'ssk_secret-looking-but-unknown-key-0000000000' });
    await api({ path: '/public/customer', key: tenant.key, query: { token: tenant.userToken, cpf } });
    await api({ path: '/public/customer', key: tenant.key, query: { token: 'sut_wrong-token-value-000000000000000000', phone } });
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
});
