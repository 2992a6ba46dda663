import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { routes, succeeded, type ApiName } from '../../infra/routes.js';
import type { ResponseDoc } from '../../shared/http/contract.js';
import { overHttp } from '../support/api.js';
import { fixture, keyFor, validRequests, type Fixture } from '../reliability/fixtures.js';

/**
 * Replays a valid request for every operation against the local stack over HTTP and checks the answer against the
 * contract the OpenAPI document is generated from: the status is documented, and the body fits its schema.
 */
const PRISM = fileURLToPath(new URL('../../node_modules/.bin/prism', import.meta.url));
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
      contract: { responses: Record<number, ResponseDoc>; admin?: string };
    };
    // The route table's admin flag (which key the tests use, the OpenAPI text) and the contract's (what the wrapper enforces) agree.
    expect(contract.admin !== undefined, `${operationId}: the route table and the contract disagree on admin`).toBe(route.admin ?? false);
    const request = validRequests[operationId]!(f);
    const res = await clients[route.api]({
      ...request,
      method: route.method,
      ...(route.anonymous ? {} : { key: keyFor(route, f) }),
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

/**
 * Stoplight Prism in front of the local stack, as a client's contract test would put it: it forwards each request
 * and names, in its sl-violations header, every way the answer departs from the served document.
 */
async function startPrism(api: ApiName): Promise<{ url: string; stop: () => void }> {
  const base = inject(api === 'public' ? 'publicUrl' : 'chatbotUrl');
  const dir = mkdtempSync(join(tmpdir(), 'prism-'));
  const document = join(dir, `${api}.json`);
  writeFileSync(document, await (await fetch(`${base}/openapi.json`)).text());
  const prism = spawn(PRISM, ['proxy', '-h', '127.0.0.1', '-p', '0', document, base], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let log = '';
    const read = (chunk: Buffer) => {
      log += chunk.toString();
      const listening = /Prism is listening on (http:\/\/\S+)/.exec(log);
      if (listening) resolve(listening[1]!);
    };
    prism.stdout.on('data', read);
    prism.stderr.on('data', read);
    prism.once('exit', (code) => reject(new Error(`prism exited (${code}): ${log.slice(-500)}`)));
  });
  return {
    url,
    stop: () => {
      prism.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Values no path parameter of the document admits: not an integer, out of range, too long, not a token. */
const MALFORMED = ['abc', '0', '1.5', '9'.repeat(17), 'x'.repeat(101)];

describe('a malformed path parameter is answered as the served document says (Prism in front of the local stack)', () => {
  const prisms: Partial<Record<ApiName, { url: string; stop: () => void }>> = {};
  const documents: Partial<Record<ApiName, { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>> = {};

  beforeAll(async () => {
    for (const api of ['public', 'chatbot'] as const) {
      prisms[api] = await startPrism(api);
      documents[api] = (await overHttp(api)({ path: '/openapi.json' })).body;
    }
  });
  afterAll(() => Object.values(prisms).forEach((prism) => prism.stop()));

  /** A request sent through Prism: the answer's status, and what Prism finds wrong with the answer. */
  async function throughPrism(operationId: string, path: string, query: Record<string, unknown>) {
    const route = routes.find((r) => r.operationId === operationId)!;
    const { body, headers } = validRequests[operationId]!(f);
    const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const res = await fetch(`${prisms[route.api]!.url}${path}${search ? `?${search}` : ''}`, {
      method: route.method,
      redirect: 'manual',
      headers: {
        ...(route.anonymous ? {} : { 'x-service-api-key': keyFor(route, f) }),
        ...headers,
        ...(body === undefined ? {} : { 'content-type': route.page ? 'application/x-www-form-urlencoded' : 'application/json' }),
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    const violations = JSON.parse(res.headers.get('sl-violations') ?? '[]') as { location: string[]; message: string }[];
    return {
      status: res.status,
      context: `${route.method} ${path} answered ${res.status}: ${text.slice(0, 200)}`,
      // Prism names the request's own faults too (the malformed id): only the answer's are the document's.
      answerViolations: violations.filter((v) => v.location[0] === 'response').map((v) => `${v.location.join('.')}: ${v.message}`),
    };
  }

  const documentedStatuses = (operationId: string, template: string) => {
    const route = routes.find((r) => r.operationId === operationId)!;
    return Object.keys(documents[route.api]!.paths[template]![route.method.toLowerCase()]!.responses);
  };

  const withPathParameters = routes.flatMap((route) => route.paths.filter((p) => p.includes('{')).map((path) => ({ route, path })));
  it('covers every operation with a path parameter', () => {
    expect(withPathParameters.length).toBeGreaterThanOrEqual(30);
  });

  it.each(withPathParameters.map(({ route, path }) => [`${route.method} ${path}`, route.operationId, path] as const))(
    '%s',
    async (_, operationId, template) => {
      const documented = documentedStatuses(operationId, template);
      for (const malformed of MALFORMED) {
        const path = template.replace(/\{\w+\}/g, encodeURIComponent(malformed));
        const answer = await throughPrism(operationId, path, validRequests[operationId]!(f).query ?? {});
        expect(documented, answer.context).toContain(String(answer.status));
        expect(answer.status, answer.context).toBeGreaterThanOrEqual(400);
        expect(answer.status, answer.context).toBeLessThan(500);
        expect(answer.answerViolations, answer.context).toEqual([]);
      }
    },
  );

  // Every operation but the pages (which ignore what they do not read) refuses a query parameter it does not take.
  it.each(
    routes.filter((r) => !r.page).map((r) => [`${r.method} ${r.paths[0]} with a query parameter it does not take`, r.operationId] as const),
  )('%s', async (_, operationId) => {
    const valid = validRequests[operationId]!(f);
    const template = routes.find((r) => r.operationId === operationId)!.paths[0]!;
    const answer = await throughPrism(operationId, valid.path, { ...valid.query, no_such_parameter: '1' });
    expect(documentedStatuses(operationId, template), answer.context).toContain(String(answer.status));
    expect([400, 422], answer.context).toContain(answer.status);
    expect(answer.answerViolations, answer.context).toEqual([]);
  });
});
