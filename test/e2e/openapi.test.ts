import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { routes, succeeded } from '../../infra/routes.js';
import { overHttp } from '../support/api.js';

describe.each(['public', 'chatbot'] as const)('the OpenAPI document of the %s API', (api) => {
  const client = overHttp(api);

  it('is served at /openapi.json without a key, and is a valid OpenAPI 3.1 document', async () => {
    const res = await client({ path: '/openapi.json' });
    expect(res.status).toBe(200);
    const validator = new Validator();
    const result = await validator.validate(res.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(res.body.openapi).toBe('3.1.0');
  });

  it('holds every path and method of the route table, and nothing else', async () => {
    const { body } = await client({ path: '/openapi.json' });
    const documented = Object.entries(body.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const declared = routes.filter((r) => r.api === api).flatMap((r) => r.paths.map((p) => `${r.method} ${p}`));
    expect(documented.sort()).toEqual(declared.sort());
  });

  it('documents each status the operation answers, with problem+json for failures', async () => {
    const { body } = await client({ path: '/openapi.json' });
    for (const route of routes.filter((r) => r.api === api)) {
      const operation = body.paths[route.paths[0]!][route.method.toLowerCase()];
      const statuses = Object.keys(operation.responses);
      expect(
        statuses.some((s) => succeeded(route, Number(s))),
        route.operationId,
      ).toBe(true);
      // Survey pages answer HTML, failures included; everything else answers problem+json for a failure.
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        expect(Object.keys(operation.responses[status].content ?? {}), `${route.operationId} ${status}`).toEqual([
          route.page ? 'text/html' : 'application/problem+json',
        ]);
      }
      expect(operation.security).toEqual(route.anonymous ? [] : [{ apiKey: [] }]);
      // Examples come from the requests the tests send.
      const media = route.page ? 'application/x-www-form-urlencoded' : 'application/json';
      if (operation.requestBody) expect(operation.requestBody.content[media].example, route.operationId).toBeDefined();
    }
  });

  it('has a browsable reference at /docs whose assets are served locally', async () => {
    const page = await client({ path: '/docs' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    for (const asset of [...page.text.matchAll(/(?:href|src)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!)) {
      const res = await client({ path: asset });
      expect(res.status, asset).toBe(200);
      expect(res.text.length).toBeGreaterThan(100);
    }
    expect(page.text).not.toMatch(/https?:\/\//);
  });
});
