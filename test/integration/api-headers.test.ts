import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../infra/routes.js';
import { inProcess } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * Every JSON answer of every operation carries personal data or may: no cache (shared or the browser's) keeps it,
 * and no browser sniffs it into something else. Each operation is called once as a client would, which gives a
 * success for the reads and a problem for the others: both kinds of answer are checked.
 */
const clients = { public: inProcess('public'), chatbot: inProcess('chatbot') };
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await newTenant();
});

describe('every API answer', () => {
  it('carries Cache-Control: no-store and X-Content-Type-Options: nosniff, success or problem', async () => {
    const statuses = new Set<number>();
    for (const route of routes.filter((r) => !r.page)) {
      for (const path of route.paths) {
        const res = await clients[route.api]({
          method: route.method,
          path: path.replace(/\{[^}]+\}/g, '1'),
          key: route.api === 'public' ? tenant.key : tenant.chatbotKey,
          headers: { 'x-service-user-token': tenant.userToken },
          ...(route.method === 'POST' || route.method === 'PUT' ? { body: {} } : {}),
        });
        const where = `${route.operationId} ${route.method} ${path}: ${res.status}`;
        expect(res.headers['content-type'], where).toMatch(/^application\/(problem\+)?json/);
        expect(res.headers['cache-control'], where).toBe('no-store');
        expect(res.headers['x-content-type-options'], where).toBe('nosniff');
        statuses.add(Math.floor(res.status / 100));
      }
    }
    // Both the wrapper's answers and its problems were seen.
    expect([...statuses].sort()).toEqual(expect.arrayContaining([2, 4]));
  });
});
