import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '../../shared/adapters/wiring/access.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { inProcess } from '../support/api.js';
import { whileFailing } from '../support/faults.js';
import { usePrivateQueue } from '../support/queues.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { v2Payload } from '../support/transactions.js';

/** A table that cannot be reached (throttled, or refusing connections): 503 with Retry-After, and ingestion goes on. */
const api = inProcess('public');
usePrivateQueue('transactions');
usePrivateQueue('surveyDispatch');
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await newTenant();
});

const post = (body: unknown) => api({ method: 'POST', path: '/v2/transactions', key: tenant.key, body });

describe('a table that cannot be reached', () => {
  const throttled = () =>
    Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
      name: 'ProvisionedThroughputExceededException',
      $metadata: { httpStatusCode: 400 },
    });

  it('answers 503 with Retry-After from a data route, from a keyed route whose key cannot be checked, and from health', async () => {
    const data = await whileFailing(/^(Get|Query|BatchGet)/, throttled(), () => api({ path: '/public/store/1', key: tenant.key }));
    expect(data.status).toBe(503);
    expect(data.headers['retry-after']).toBe('5');
    expect(data.body).toMatchObject({ type: '/problems/unavailable', status: 503 });

    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const keyed = await whileFailing(/.*/, refused, () => api({ path: '/public/store', key: tenant.key }));
    expect(keyed.status).toBe(503);
    expect(keyed.headers['retry-after']).toBe('5');
    expect(JSON.stringify(keyed.body)).not.toContain('ECONNREFUSED');

    const health = await whileFailing(/.*/, refused, () => api({ path: '/health' }));
    expect(health.status).toBe(503);
    expect(health.headers['retry-after']).toBe('5');
  });

  it('checks a key again once the table is back, though the authorizer answer was cached during the outage', async () => {
    const cached = inProcess('public', 300);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect((await whileFailing(/.*/, refused, () => cached({ path: '/public/store/1', key: tenant.key }))).status).toBe(503);
    expect((await cached({ path: '/public/store/1', key: tenant.key })).status).toBe(200);
    expect((await cached({ path: '/public/store/1', key: 'ssk_not-a-key' })).status).toBe(401);
  });
});

describe('ingestion through a table outage', () => {
  const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });

  it('keeps queueing sales for a key the authorizer verified before the outage, and for no other', async () => {
    expect((await post(v2Payload())).status).toBe(201);
    const during = await whileFailing(/.*/, refused(), () => post(v2Payload()));
    expect(during.status, during.text).toBe(201);
    // A route that needs the table still says it cannot reach it.
    expect((await whileFailing(/.*/, refused(), () => api({ path: '/public/store/1', key: tenant.key }))).status).toBe(503);
    // A key this authorizer never verified is not taken on trust.
    const { key: fresh } = await tenantService.issueApiKey(tenant.tenantId, { scope: 'public' });
    const unknown = await whileFailing(/.*/, refused(), () =>
      api({ method: 'POST', path: '/v2/transactions', key: fresh, body: v2Payload() }),
    );
    expect(unknown.status).toBe(503);
  });

  it('never answers from memory for a key it has seen revoked', async () => {
    const { key, keyId } = await tenantService.issueApiKey(tenant.tenantId, { scope: 'public' });
    const send = () => api({ method: 'POST', path: '/v2/transactions', key, body: v2Payload() });
    expect((await send()).status).toBe(201);
    await apiKeys.revokeKey(tenant.tenantId, { keyId, actor: { operator: true } });
    expect((await send()).status).toBe(401);
    expect((await whileFailing(/.*/, refused(), send)).status).toBe(503);
  });
});
