import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../infra/routes.js';
import { errorPaths, inProcess } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * A user token in a URL lands in access logs and browser histories. The seed names the `token` query parameter for
 * two lists only, customers and flexible-form ratings (and their read by id sends it too): there it stays; every other
 * operation refuses it with a 400 naming `token`, even beside the header, and takes the token in its header only.
 */
const SEED_TOKEN_IN_QUERY = ['listCustomers', 'listEvaluations', 'getEvaluation'];
const clients = { public: inProcess('public'), chatbot: inProcess('chatbot') };
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await newTenant();
});

const call = (route: (typeof routes)[number], path: string, query: Record<string, string>, headers: Record<string, string> = {}) =>
  clients[route.api]({
    method: route.method,
    path: path.replace(/\{[^}]+\}/g, '1'),
    key: route.api === 'public' ? tenant.key : tenant.chatbotKey,
    query,
    headers,
    ...(route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH' ? { body: {} } : {}),
  });

describe('a user token in the URL', () => {
  it('is refused with a 400 naming token on every operation but the seed three, even beside the header', async () => {
    const refused = routes.filter((r) => !r.page && !SEED_TOKEN_IN_QUERY.includes(r.operationId));
    expect(refused.length).toBeGreaterThan(40);
    for (const route of refused)
      for (const path of route.paths) {
        const res = await call(route, path, { token: tenant.userToken }, { 'x-service-user-token': tenant.userToken });
        const where = `${route.operationId} ${route.method} ${path}: ${res.status} ${res.text}`;
        expect(res.status, where).toBe(400);
        expect(res.headers['content-type'], where).toBe('application/problem+json');
        expect(errorPaths(res), where).toEqual(['token']);
      }
  });

  it('is still taken on the seed lists of customers and flexible-form ratings, and sent to their read by id', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const byId = Object.fromEntries(routes.map((r) => [r.operationId, r]));
    for (const path of byId.listCustomers!.paths)
      expect((await call(byId.listCustomers!, path, { token: tenant.userToken })).status, path).toBe(200);
    for (const path of byId.listEvaluations!.paths)
      expect((await call(byId.listEvaluations!, path, { token: tenant.userToken, start_date: today, end_date: today })).status, path).toBe(
        200,
      );
    // No evaluation 1 in a new tenant: the token is let through to the read, which answers what it finds.
    for (const path of byId.getEvaluation!.paths)
      expect((await call(byId.getEvaluation!, path, { token: tenant.userToken })).status, path).toBe(404);
  });
});
