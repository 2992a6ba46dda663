import { beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../infra/local/gateway.js';
import { prepare } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/** The local stand-in for API Gateway routes as API Gateway does. */
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await newTenant();
});

describe('the local gateway', () => {
  it('does not resolve dot segments or merge slashes into a route, as API Gateway does not', async () => {
    const gateway = createGateway({ api: 'public' });
    for (const path of ['/public/x/../store/1', '//public/store/1', '/public/./store/1', '/public/%2e%2e/public/store/1']) {
      const { url, headers, body } = prepare({ path, key: tenant.key });
      const res = await gateway({ method: 'GET', url, headers, body });
      expect(res.status, path).toBe(404);
    }
  });
});
