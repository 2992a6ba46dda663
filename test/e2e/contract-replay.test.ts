import { pathToFileURL } from 'node:url';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes, succeeded } from '../../infra/routes.js';
import type { ResponseDoc } from '../../shared/http/contract.js';
import { overHttp } from '../support/api.js';
import { fixture, validRequests, type Fixture } from '../reliability/fixtures.js';

/**
 * Replays a valid request for every operation against the local stack over HTTP and checks the answer against the
 * contract the OpenAPI document is generated from: the status is documented, and the body fits its schema.
 */
const clients = { public: overHttp('public'), chatbot: overHttp('chatbot') };
let f: Fixture;

beforeAll(async () => {
  f = await fixture();
});

describe('every operation answers what its contract documents', () => {
  // Deactivations last: the operations after them use the same store and employee.
  const ordered = [...routes].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
  it.each(ordered.map((r) => r.operationId))('%s', async (operationId) => {
    const route = routes.find((r) => r.operationId === operationId)!;
    const { contract } = (await import(pathToFileURL(new URL(`../../functions/${route.handler}`, import.meta.url).pathname).href)) as {
      contract: { responses: Record<number, ResponseDoc> };
    };
    const request = validRequests[operationId]!(f);
    const res = await clients[route.api]({
      ...request,
      method: route.method,
      ...(route.anonymous ? {} : { key: route.api === 'chatbot' ? f.chatbotKey : f.key }),
    });

    const documented = contract.responses[res.status];
    expect(documented, `${operationId} answered ${res.status}, which its contract does not list: ${res.text.slice(0, 200)}`).toBeDefined();
    expect(succeeded(route, res.status), `${operationId} answered ${res.status}`).toBe(true);
    if (documented!.schema) {
      const result = v.safeParse(documented!.schema, res.body);
      expect(result.issues?.map((i) => `${v.getDotPath(i)}: ${i.message}`) ?? []).toEqual([]);
    }
  });
});
