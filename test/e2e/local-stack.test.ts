import { execFileSync } from 'node:child_process';
import { DYNAMODB_LOCAL_CORS } from '../../infra/local/services.js';
import { describe, expect, it } from 'vitest';
import { inProcess, overHttp, type ApiClient } from '../support/api.js';
import { newTenant } from '../support/tenant.js';

const DEMO_KEY = 'local-dev-api-key';

describe('the local stack over HTTP', () => {
  const api = overHttp('public');
  const chatbot = overHttp('chatbot');

  it('runs DynamoDB Local without telemetry, and lets no web page call it (its CORS default is any origin)', async () => {
    const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB!;
    const port = new URL(endpoint).port;
    const java = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
      .split('\n')
      .find((line) => line.includes('DynamoDBLocal.jar') && line.includes(`-port ${port} `));
    expect(java).toContain('-disableTelemetry');
    expect(java).toContain(`-cors ${DYNAMODB_LOCAL_CORS}`);
    const preflight = await fetch(endpoint, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://attacker.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-amz-target',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers GET /health with 200 and no key', async () => {
    const res = await api({ path: '/health' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });

  it('serves the seeded demo tenant with its demo key', async () => {
    const res = await api({ path: '/public/store/1', key: DEMO_KEY });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 1, status: 'active' });
    expect(res.headers['x-request-id']).toBe(res.headers['apigw-requestid']);
  });

  it('keeps the second demo tenant apart from the first', async () => {
    const created = await api({ method: 'POST', path: '/public/store', key: DEMO_KEY, body: { trade_name: 'Demo only' } });
    const res = await api({ path: `/public/store/${created.body.id}`, key: 'local-dev-api-key-2' });
    expect(res.status).toBe(404);
  });

  it("keeps demo's customers and employees from demo-2's key", async () => {
    const customer = await api({
      method: 'POST',
      path: '/public/customer',
      key: DEMO_KEY,
      body: { name: 'Demo customer', client_id: `E2E-${Date.now()}` },
    });
    const employee = await api({ method: 'POST', path: '/public/employee', key: DEMO_KEY, body: { name: 'Demo employee' } });
    expect([customer.status, employee.status]).toEqual([200, 200]);
    for (const path of [
      `/public/customer/${customer.body.id}`,
      `/public/employee/${employee.body.id}`,
      `/employee/${employee.body.id}/stores`,
    ]) {
      expect((await api({ path, key: 'local-dev-api-key-2' })).status).toBe(404);
    }
    expect(
      (await api({ method: 'PUT', path: `/customer/${customer.body.id}`, key: 'local-dev-api-key-2', body: { name: 'x' } })).status,
    ).toBe(404);
    const search = await api({
      path: '/public/customer',
      key: 'local-dev-api-key-2',
      headers: { 'x-service-user-token': 'local-dev-user-token' },
      query: { client_id: customer.body.client_id },
    });
    expect(search.status).toBe(401);
    const mine = await api({
      path: '/public/customer',
      key: DEMO_KEY,
      headers: { 'x-service-user-token': 'local-dev-user-token' },
      query: { client_id: customer.body.client_id },
    });
    expect(mine.body.data).toHaveLength(1);
  });

  it('answers 401 for a wrong key and for no key', async () => {
    expect((await api({ path: '/public/store', key: 'wrong' })).status).toBe(401);
    expect((await api({ path: '/public/store' })).status).toBe(401);
  });

  it('accepts only chatbot keys on the chatbot API, and public keys fail there', async () => {
    // The chatbot API has no routes yet but /survey will; an unknown route is API Gateway's 404 either way.
    expect((await chatbot({ path: '/public/store', key: 'local-dev-chatbot-key' })).status).toBe(404);
    expect((await api({ path: '/public/store', key: 'local-dev-chatbot-key' })).status).toBe(401);
  });

  it("answers API Gateway's 404 for an unknown route or method", async () => {
    const unknown = await api({ path: '/nothing-here', key: DEMO_KEY });
    expect(unknown.status).toBe(404);
    expect((await api({ method: 'PATCH', path: '/public/store/1', key: DEMO_KEY })).status).toBe(404);
  });
});

// One test body, run by calling the handlers in-process and over HTTP through the local gateway.
describe.each([
  ['in-process', inProcess('public')],
  ['over HTTP', overHttp('public')],
] as [string, ApiClient][])('a store lifecycle (%s)', (_, api) => {
  it('creates, lists, edits and deactivates a store with the status codes of the interface', async () => {
    const { key } = await newTenant();
    const created = await api({
      method: 'POST',
      path: '/public/store',
      key,
      body: { trade_name: 'Loja Norte', company_name: 'Norte SA', store_id: 'N-1' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;

    const listed = await api({ path: '/store', key, query: { limit: 100, page: 1, status: 'active' } });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((s: { id: number }) => s.id)).toEqual([1, id]);

    expect((await api({ method: 'PUT', path: `/public/store/${id}`, key, body: { company_name: 'Norte Ltda' } })).status).toBe(202);
    expect((await api({ method: 'DELETE', path: `/store/${id}`, key })).status).toBe(200);
    const read = await api({ path: `/public/store/${id}`, key });
    expect(read.body).toMatchObject({ id, company_name: 'Norte Ltda', status: 'inactive' });
    expect((await api({ path: '/public/store', key, query: { status: 'active' } })).body.data).toHaveLength(1);
  });
});
