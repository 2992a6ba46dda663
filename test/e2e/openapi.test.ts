import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import type * as SpectralCore from '@stoplight/spectral-core';
import type * as SpectralParsers from '@stoplight/spectral-parsers';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { referencePaths, routes, succeeded } from '../../infra/routes.js';
import { ACKNOWLEDGED as ANSWERED, acknowledgmentOf, requestShapesOf, ruleset } from '../../infra/openapi-ruleset.js';
import { validRequests } from '../../infra/examples.js';
import { repeatedEnums } from '../../infra/openapi-enums.js';
import { overHttp } from '../support/api.js';

/**
 * Findings of the linters that are right in general and wrong here, each with its reason (as cdk-nag's are): a
 * finding not listed fails the test, and so does an acknowledgment that no longer matches anything.
 */
const ACKNOWLEDGED = [
  {
    rule: 'operation-2xx-response',
    at: '#/paths/~1s~1{token}/post/responses',
    reason: 'The survey form posts and is redirected (303) to the page that thanks: Post/Redirect/Get, so a reload never posts twice.',
  },
  {
    rule: 'operation-2xx-response',
    at: '#/paths/~1q~1{token}/post/responses',
    reason: "A QR code's form is the survey form: Post/Redirect/Get to the thanks (303).",
  },
  {
    rule: 'operation-2xx-response',
    at: '#/paths/~1k~1{token}/get/responses',
    reason: "A kiosk's first visit keeps its token in a cookie and redirects (303) to its page, so the token leaves the address.",
  },
  {
    rule: 'operation-2xx-response',
    at: '#/paths/~1k/post/responses',
    reason: "A kiosk's form is the survey form: Post/Redirect/Get to the thanks (303).",
  },
];

// CommonJS packages: their named exports reach ESM through the default export.
const { Spectral, Document } = spectralCore as unknown as typeof SpectralCore;
const { Json } = spectralParsers as unknown as typeof SpectralParsers;

/** The answers (infra/openapi-ruleset.ts) some finding of either document matched: each must match one. */
const answered = new Set<(typeof ANSWERED)[number]>();

/** The credentials each operation takes: each its own scheme; the user token in the URL only where the seed sends it. */
function securityOf(route: (typeof routes)[number]): Record<string, string[]>[] {
  if (route.anonymous) return [];
  if (route.api === 'chatbot') return [{ chatbotKey: [] }];
  if (route.admin) return [{ adminKey: [] }, { publicKey: [], userToken: [] }];
  const request = validRequests[route.operationId]!({ userToken: 'sut_example' } as Parameters<(typeof validRequests)[string]>[0]);
  const tokens = request.headers?.['x-service-user-token']
    ? ['userToken', ...(['listCustomers', 'listEvaluations'].includes(route.operationId) ? ['userTokenQuery'] : [])]
    : [];
  return (tokens.length ? tokens : [undefined]).flatMap((token) =>
    ['publicKey', 'adminKey'].map((key) => ({ [key]: [], ...(token ? { [token]: [] } : {}) })),
  );
}

afterAll(() => {
  // Every answer still matches a finding: a rule the document no longer breaks leaves no stale reason behind.
  if (answered.size) expect(ANSWERED.filter((a) => !answered.has(a)).map((a) => `${a.rule} at ${a.at}`)).toEqual([]);
});

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
    // The pages the API serves beside its operations (this document, /docs, its assets) are in it too.
    expect(documented.sort()).toEqual([...declared, ...referencePaths(api).map((p) => `GET ${p}`)].sort());
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
      // Survey pages answer HTML, failures included; everything else answers problem+json for a failure. API
      // Gateway's own answers are bare JSON (504 only ever theirs, and 429 but where the operation bounds something
      // itself, its contract says so: pending privacy requests, a QR code's answers from one address).
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        const media = Object.keys(operation.responses[status].content ?? {});
        expect(media.length, `${route.operationId} ${status}`).toBeGreaterThan(0);
        expect(
          media.filter((m) => m !== 'application/json'),
          `${route.operationId} ${status}`,
        ).toEqual(
          status === '504' ||
            (status === '429' && !['post-privacy-request', 'post-qr-page', 'post-kiosk-page'].some((h) => route.handler.includes(h)))
            ? []
            : [route.page ? 'text/html' : 'application/problem+json'],
        );
      }
      for (const status of ['429', '500', '503', '504', ...(route.anonymous ? [] : ['401'])])
        expect(operation.responses[status]?.content?.['application/json']?.schema, `${route.operationId} ${status}`).toEqual({
          $ref: '#/components/schemas/GatewayMessage',
        });
      for (const alias of route.paths.slice(1)) expect(body.paths[alias][route.method.toLowerCase()]['x-alias-of']).toBe(route.paths[0]);
      expect(operation.security, route.operationId).toEqual(securityOf(route));
      // Examples come from the requests the tests send; a file's body (a logo) is bytes of the media types it names.
      const media = route.page ? 'application/x-www-form-urlencoded' : 'application/json';
      const file = operation.requestBody && !operation.requestBody.content[media];
      if (file) expect(Object.values(operation.requestBody.content)).toContainEqual({ schema: { type: 'string', format: 'binary' } });
      else if (operation.requestBody) expect(operation.requestBody.content[media].example, route.operationId).toBeDefined();
    }
  });

  it('types every id as an integer and every instant it answers as a date-time, and declares the headers it sends', async () => {
    const { body } = await client({ path: '/openapi.json' });
    const untyped: string[] = [];
    // What the service answers (request bodies take dates in more forms than it writes).
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      const { properties = {} } = node as { properties?: Record<string, unknown> };
      for (const [name, schema] of Object.entries(properties)) {
        const text = JSON.stringify(schema);
        if (/^(id|\w+_id)$/.test(name) && text.includes('"number"')) untyped.push(`${at}/${name}: a number`);
        if (name.endsWith('_at') && !text.includes('"date-time"')) untyped.push(`${at}/${name}: not a date-time`);
      }
      for (const [key, value] of Object.entries(node)) if (key !== 'requestBody' && key !== 'parameters') walk(value, `${at}/${key}`);
    };
    walk(body.paths, '#/paths');
    walk(body.components.schemas, '#/components/schemas');
    expect(untyped).toEqual([]);
    for (const route of routes.filter((r) => r.api === api)) {
      const { responses } = body.paths[route.paths[0]!][route.method.toLowerCase()];
      for (const [status, response] of Object.entries(responses as Record<string, { headers?: Record<string, { required: boolean }> }>)) {
        // Every answer of the service names its request; API Gateway's own (the only 504, say) do not.
        if (Number(status) < 400) expect(response.headers?.['x-request-id']?.required, `${route.operationId} ${status}`).toBe(true);
        if (status === '503') expect(response.headers?.['Retry-After'], route.operationId).toBeDefined();
      }
    }
    if (api !== 'public') return;
    const operation = (path: string, method: string) => body.paths[path][method];
    for (const [path, method] of [
      ['/public/admin/config', 'put'],
      ['/public/cases/{id}', 'patch'],
    ] as const)
      expect(operation(path, method).parameters, `${method} ${path}`).toContainEqual(
        expect.objectContaining({ name: 'If-Match', in: 'header', required: true }),
      );
    for (const [path, method] of [
      ['/public/admin/config', 'get'],
      ['/public/admin/config', 'put'],
      ['/public/cases/{id}', 'get'],
      ['/public/cases/{id}', 'patch'],
    ] as const)
      expect(operation(path, method).responses['200'].headers.ETag.required, `${method} ${path}`).toBe(true);
    expect(operation('/v2/transactions', 'post').responses['201'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/V2Transaction',
    });
    expect(operation('/public/admin/brand/logos', 'post').responses['201'].headers.Location.required).toBe(true);
  });

  it("passes Spectral's oas and OWASP rulesets and Redocly's recommended with no error and no warning unanswered", async () => {
    const { text, body } = await client({ path: '/openapi.json' });
    const requestShapes = requestShapesOf(body);
    const spectral = new Spectral();
    spectral.setRuleset(ruleset);
    const spectralFindings = (await spectral.run(new Document(text, Json, `${api}.json`)))
      .filter((finding) => {
        const answer = acknowledgmentOf(String(finding.code), finding.path.join('.'), requestShapes);
        if (answer) answered.add(answer);
        return !answer;
      })
      .map((finding) => `spectral ${finding.code} at ${finding.path.join('.')}: ${finding.message}`);
    const redocly = await lintFromString({
      source: text,
      absoluteRef: `${api}.json`,
      config: await createConfig({ extends: ['recommended'] }),
    });
    const acknowledged = new Set<string>();
    const redoclyFindings = redocly
      .filter((problem) => {
        const known = ACKNOWLEDGED.find((a) => a.rule === problem.ruleId && a.at === problem.location[0]?.pointer);
        if (known) acknowledged.add(known.at);
        return !known;
      })
      .map((problem) => `redocly ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
    expect([...spectralFindings, ...redoclyFindings]).toEqual([]);
    if (api === 'public') expect([...acknowledged]).toEqual(ACKNOWLEDGED.map((a) => a.at));
    // Patterns any generator's regular expression engine reads: no Unicode property classes.
    expect(text).not.toMatch(/\\\\p\{/);
    // OWASP's rules walk every schema: about 10 s for the public document alone, more beside another test file.
  }, 60_000);

  it('names each set of values once, as a component a generated client types once, and writes none inline twice', async () => {
    const { body } = await client({ path: '/openapi.json' });
    expect(repeatedEnums(body)).toEqual({});
    const named = Object.values(body.components.schemas as Record<string, { enum?: unknown[] }>).filter((schema) => schema.enum);
    expect(named.length).toBeGreaterThanOrEqual(api === 'public' ? 10 : 0);
  });

  it('has a browsable reference at /docs, plain HTML whose assets it serves itself, under a strict content security policy', async () => {
    const page = await client({ path: '/docs' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self';/);
    // Every operation is in the page itself: nothing to run before it can be read.
    for (const route of routes.filter((r) => r.api === api))
      for (const path of route.paths)
        expect(page.text, `${route.method} ${path}`).toContain(`data-path="${path}" data-method="${route.method.toLowerCase()}"`);
    expect(page.text).not.toMatch(/<script/);
    // Relative addresses, so that the pages work under a stage's path prefix on AWS; Swagger UI is one link away.
    const linked = (html: string) => [...html.matchAll(/(?:href|src)="([^"#]+)"/g)].map((m) => m[1]!).filter((a) => !a.startsWith('data:'));
    expect(linked(page.text).sort()).toEqual(['assets/console.html', 'assets/docs.css', 'openapi.json']);
    const swagger = await client({ path: '/assets/console.html' });
    expect(swagger.headers['content-security-policy']).toMatch(/script-src 'self';/);
    const assets = [...linked(page.text).filter((a) => a.startsWith('assets/')), ...linked(swagger.text).map((a) => `assets/${a}`)];
    expect(assets).toHaveLength(5);
    for (const asset of assets) {
      const res = await client({ path: `/${asset}` });
      expect(res.status, asset).toBe(200);
      expect(res.headers['cache-control'], asset).toMatch(/^public, max-age=\d+$/);
      expect(res.text.length, asset).toBeGreaterThan(50);
    }
    for (const html of [page.text, swagger.text]) expect(html).not.toMatch(/https?:\/\//);
    // Every page has its icon inline: no browser asks for a /favicon.ico, which would answer 404.
    for (const path of ['/docs', '/assets/console.html', ...(api === 'public' ? ['/app/sign-in'] : [])])
      expect((await client({ path })).text, path).toMatch(/<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml;base64,/);
    for (const path of [
      '/assets/nothing.js',
      '/assets/openapi.json',
      '/assets/docs.html',
      '/assets/..%2Fopenapi.json',
      '/docs/assets/docs.css',
    ])
      expect((await client({ path })).status, path).toBe(404);
  });

  it('answers its pages and assets compressed when Accept-Encoding admits it (brotli first, then gzip), the same bytes once decoded', async () => {
    for (const path of ['/docs', '/openapi.json', '/assets/swagger-ui-bundle.js', '/assets/app.css']) {
      const plain = await client({ path, headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      for (const [accept, coding] of [
        ['gzip, deflate, br, zstd', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0, gzip;q=0.5', 'gzip'],
        ['*', 'br'],
        ['deflate', undefined],
      ] as const) {
        const raw = await fetch(`${inject(api === 'public' ? 'publicUrl' : 'chatbotUrl')}${path}`, {
          headers: { 'accept-encoding': accept },
        });
        expect(raw.headers.get('content-encoding') ?? undefined, `${path} ${accept}`).toBe(coding);
        expect(raw.headers.get('vary'), path).toBe('accept-encoding');
        // fetch decodes what the content-encoding names, as a browser does.
        expect(await raw.text(), `${path} ${accept}`).toBe(plain.text);
      }
      const compressed = await fetch(`${inject(api === 'public' ? 'publicUrl' : 'chatbotUrl')}${path}`, {
        headers: { 'accept-encoding': 'br' },
      });
      expect(Number(compressed.headers.get('content-length')), path).toBeLessThan(Buffer.byteLength(plain.text) / 2);
    }
  });
});

describe('the customer fields in the OpenAPI document of the public API', () => {
  it('documents the locale with its allowed values wherever a customer is sent or read', async () => {
    const { body } = await overHttp('public')({ path: '/openapi.json' });
    const locale = { $ref: '#/components/schemas/Locale' };
    expect(body.components.schemas.Locale).toEqual({ type: 'string', enum: ['pt-BR', 'es', 'en'] });
    const named = (schema: { $ref?: string }) => (schema.$ref ? body.components.schemas[schema.$ref.split('/').pop()!] : schema);
    const bodyOf = (path: string, method: string) => named(body.paths[path][method].requestBody.content['application/json'].schema);
    expect(body.components.schemas.Customer.properties.locale).toMatchObject(locale);
    expect(body.components.schemas.Customer.required).not.toContain('locale');
    expect(bodyOf('/public/customer', 'post').properties.locale).toMatchObject(locale);
    expect(bodyOf('/public/customer/{id}', 'put').properties.locale.anyOf).toEqual(
      expect.arrayContaining([expect.objectContaining(locale)]),
    );
    expect(bodyOf('/v2/transactions', 'post').properties.customer.properties.locale).toMatchObject(locale);
    expect(bodyOf('/public/transaction', 'post').properties.locale).toMatchObject(locale);
  });
});

describe('transaction_id in the OpenAPI documents', () => {
  it("is the caller's code everywhere: a string, and wherever it is answered the same schema with one description", async () => {
    const found: { at: string; schema: { type?: string; anyOf?: { type: string }[]; description?: string } }[] = [];
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      const { properties = {} } = node as { properties?: Record<string, (typeof found)[number]['schema']> };
      if (properties.transaction_id) found.push({ at, schema: properties.transaction_id });
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
    };
    for (const api of ['public', 'chatbot'] as const) walk((await overHttp(api)({ path: '/openapi.json' })).body, api);
    expect(found.map((f) => f.at)).toEqual(expect.arrayContaining(['public/components/schemas/Case', 'public/components/schemas/Answer']));
    const types = (schema: (typeof found)[number]['schema']) => (schema.anyOf ?? [schema]).map((s) => s.type);
    for (const { at, schema } of found)
      expect(
        types(schema).filter((t) => t !== 'null'),
        at,
      ).toEqual(['string']);
    // What the service answers (a request takes the code, never null): one schema, one description.
    const answered = found.filter(({ schema }) => types(schema).includes('null'));
    expect(answered.length).toBeGreaterThanOrEqual(4);
    for (const { at, schema } of answered) expect(schema, at).toEqual(answered[0]!.schema);
    expect(answered[0]!.schema.description).toMatch(/code/);
  });
});
