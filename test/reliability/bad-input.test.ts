import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, succeeded, type Route } from '../../infra/routes.js';
import { startGateway, type Gateway } from '../../infra/local/gateway.js';
import { cognitoIdentityProvider, cognitoUserDirectory } from '../../shared/adapters/cognito.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { ENV } from '../../shared/config.js';
import { consume, usePrivateQueue } from '../support/queues.js';
import { usePrivateTable } from '../support/table.js';
import { inProcess, type ApiRequest, type ApiResponse } from '../support/api.js';
import { CASES_PER_ROUTE, FULL, fixture, keyFor, snapshot, validRequests, type Fixture } from './fixtures.js';

/**
 * Malformed and hostile requests for every route, generated with fast-check: wrong types, missing and extra
 * fields, huge strings and lists, invalid UTF-8, injection-shaped strings, unknown query parameters, path ids
 * that are not ids. Every answer must be a 4xx problem (or a 2xx where the input happened to be valid), never a
 * 5xx, and a request that was refused must have changed nothing.
 */
// Its own table: each route's check reads the tenant's items twice with a Scan (see usePrivateTable).
usePrivateTable();
const clients = { public: inProcess('public'), chatbot: inProcess('chatbot') };
let f: Fixture;
// Valid-by-chance v2 transactions go to a queue of this file, so that no consumer writes behind the snapshots.
const queued = usePrivateQueue('transactions');
usePrivateQueue('surveyDispatch');
// Accepted privacy requests wait here: the local stack's consumer would change the tenant under a later route's check.
usePrivateQueue('privacy');
// Comments to analyse wait here too: the analyser writes each answer's themes behind the snapshots. So do the cases and
// events of answers valid by chance: the local case opener and webhook sender would write a case or a failed delivery
// while a later route's check compares its snapshots (seen once, on a loaded machine).
usePrivateQueue('analysis');
usePrivateQueue('cases');
usePrivateQueue('events');
export const tally = { requests: 0, refused: 0, accepted: 0, serverErrors: 0 };

beforeAll(async () => {
  f = await fixture();
});
afterAll(() => {
  console.info(
    `bad input: ${tally.requests} requests, ${tally.refused} refused with a 4xx problem, ${tally.accepted} valid by chance, ${tally.serverErrors} server errors`,
  );
});

const hostile = fc.constantFrom(
  '',
  ' ',
  '0',
  '-1',
  '1.5',
  '1e3',
  'NaN',
  'Infinity',
  'null',
  'true',
  '[]',
  '{}',
  '99999999999999999999',
  "' OR '1'='1",
  '<script>alert(1)</script>',
  '${jndi:ldap://x/a}',
  '../../../etc/passwd',
  '\u0000',
  '\ud800',
  'T#1#STORE#1',
  '%',
  'é'.repeat(300),
  '1; DROP TABLE x',
  '{"$gt":""}',
  // Calendar-invalid and far-future dates, invisible characters in codes.
  '2026-02-30',
  '9999-12-01',
  '+275760-09-13',
  'March 7',
  'A\u200bB',
  'A\u202eB',
  '__proto__',
  'constructor',
);
/** Numbers at and beyond what DynamoDB stores: above 2^53-1, beyond 9.99e125, below 1e-130. */
const edgeNumbers = fc.constantFrom(
  2 ** 53,
  Number('12345678901234567'),
  1e126,
  1e200,
  1e-131,
  -1e-131,
  1e-130,
  Number.MAX_SAFE_INTEGER,
  -0,
);
const anyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  hostile,
  fc.string({ minLength: 1000, maxLength: 5000 }),
);
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  anyString,
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { minLength: 1000, maxLength: 3000 }),
  edgeNumbers,
  fc.dictionary(fc.oneof(hostile, fc.constant('')), fc.oneof(edgeNumbers, anyString), { maxKeys: 3 }),
);

function variants(route: Route, valid: ApiRequest): fc.Arbitrary<ApiRequest> {
  const options: fc.Arbitrary<ApiRequest>[] = [];
  const template = route.paths[0]!;
  if (template.includes('{')) {
    options.push(anyString.map((value) => ({ ...valid, path: template.replace(/\{\w+\}/, encodePathSegment(value)) })));
  }
  const query = valid.query ?? {};
  options.push(
    fc
      .record({ key: fc.constantFrom(...Object.keys(query), 'limit', 'page', 'cursor', 'status'), value: anyString })
      .map(({ key, value }) => ({ ...valid, query: { ...query, [key]: value } })),
    fc
      .tuple(fc.string({ minLength: 1, maxLength: 20 }), anyString)
      .map(([key, value]) => ({ ...valid, query: { ...query, [`x${key}`]: value } })),
  );
  if (route.page && typeof valid.body === 'string') {
    // A form: fields replaced, added or dropped with any text, raw bytes, and other media types.
    const form = new URLSearchParams(valid.body);
    const fields = [...form.keys()];
    const withField = (name: string, value: string) => {
      const next = new URLSearchParams(form);
      next.set(name, value);
      return next.toString();
    };
    options.push(
      fc
        .record({ field: fc.constantFrom(...fields), value: anyString })
        .map(({ field, value }) => ({ ...valid, body: withField(field, value) })),
      fc.tuple(fc.string({ minLength: 1, maxLength: 20 }), anyString).map(([name, value]) => ({ ...valid, body: withField(name, value) })),
      fc.string({ maxLength: 300 }).map((text) => ({ ...valid, body: text })),
      fc.uint8Array({ minLength: 1, maxLength: 300 }).map((bytes) => ({ ...valid, body: Buffer.from(bytes) })),
      fc
        .constantFrom('application/json', 'text/plain', 'multipart/form-data', '')
        .map((type) => ({ ...valid, headers: { 'content-type': type } })),
    );
  } else if (Buffer.isBuffer(valid.body)) {
    // A file: any bytes, a valid image's head followed by anything, text (an SVG, JSON), and other media types.
    const head = valid.body.subarray(0, 16);
    options.push(
      fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ ...valid, body: Buffer.from(bytes) })),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ ...valid, body: Buffer.concat([head, Buffer.from(bytes)]) })),
      anyString.map((text) => ({ ...valid, body: text })),
      fc
        .constantFrom('application/json', 'image/svg+xml', 'text/plain', 'multipart/form-data', '')
        .map((type) => ({ ...valid, headers: { 'content-type': type } })),
    );
  } else if (valid.body !== undefined) {
    const body = valid.body as Record<string, unknown>;
    const fields = Object.keys(body);
    options.push(
      anyJson.map((value) => ({ ...valid, body: JSON.stringify(value ?? null) })),
      fc
        .record({ field: fc.constantFrom(...fields), value: anyJson })
        .map(({ field, value }) => ({ ...valid, body: { ...body, [field]: value } })),
      fc
        .constantFrom(...fields)
        .map((field) => ({ ...valid, body: Object.fromEntries(Object.entries(body).filter(([k]) => k !== field)) })),
      fc
        .tuple(fc.string({ minLength: 1, maxLength: 20 }), anyJson)
        .map(([key, value]) => ({ ...valid, body: { ...body, [`x${key}`]: value } })),
      fc.string({ maxLength: 200 }).map((text) => ({ ...valid, body: `{${text}` })),
      fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => ({
        ...valid,
        body: Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe, ...bytes]), Buffer.from('"}')]),
      })),
      fc
        .constantFrom('text/plain', 'application/xml', 'multipart/form-data', '')
        .map((type) => ({ ...valid, headers: { 'content-type': type }, body: JSON.stringify(body) })),
    );
  }
  return fc.oneof(...options);
}

/** A path segment for any string, lone surrogates included (encodeURIComponent throws on those). */
function encodePathSegment(value: string): string {
  const encoded = [...Buffer.from(value, 'utf8')]
    .map((byte) => (/[\w.~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`))
    .join('');
  return encoded.slice(0, 4000) || '%20';
}

function check(res: ApiResponse, request: ApiRequest, route: Route): void {
  tally.requests++;
  if (res.status >= 500) tally.serverErrors++;
  expect(
    res.status,
    `${request.method ?? 'GET'} ${request.path} ${JSON.stringify(request.query)} -> ${res.status} ${res.text.slice(0, 300)}`,
  ).toBeLessThan(500);
  if (res.status >= 400) {
    tally.refused++;
    // API Gateway's own answers (an unknown route) are bare JSON; every answer of ours is a problem, or a page on a page route.
    if (res.headers['content-type'] !== 'application/json')
      expect(res.headers['content-type']).toBe(route.page ? 'text/html; charset=utf-8' : 'application/problem+json');
  } else tally.accepted++;
}

const RECORDS_READS = new Set(['getCustomer', 'listCustomers', 'getPrivacyExport', 'listAnswers', 'listCases', 'getCase']);

describe('bad input on every route', () => {
  const covered = routes.filter((r) => validRequests[r.operationId]);
  it('covers every route', () => expect(covered).toHaveLength(routes.length));

  it.each(covered.map((r) => r.operationId))(
    '%s: never a 5xx, and what it refuses changes nothing',
    async (operationId) => {
      const route = routes.find((r) => r.operationId === operationId)!;
      const client = clients[route.api];
      const key = keyFor(route, f);
      const valid = { ...validRequests[operationId]!(f), key };
      const before = await snapshot(f.tenantId);
      let wrote = false;
      await fc.assert(
        fc.asyncProperty(variants(route, { ...valid, method: route.method }), async (request) => {
          const res = await client(request);
          check(res, request, route);
          // Reads of personal data that are answered write their access-log entries.
          if (succeeded(route, res.status) && (route.method !== 'GET' || RECORDS_READS.has(operationId))) wrote = true;
        }),
        { numRuns: CASES_PER_ROUTE },
      );
      if (!wrote) expect(await snapshot(f.tenantId)).toBe(before);
      // The full run's 2,000 cases a route take minutes on a loaded machine.
    },
    FULL ? 900_000 : undefined,
  );

  it.each(routes.filter((r) => r.method !== 'GET').map((r) => r.operationId))('%s: a body over 1 MiB is a 413', async (operationId) => {
    const route = routes.find((r) => r.operationId === operationId)!;
    const valid = validRequests[operationId]!(f);
    const res = await clients[route.api]({
      ...valid,
      method: route.method,
      key: keyFor(route, f),
      body: JSON.stringify({ padding: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.status).toBe(413);
  });
});

describe('the v2 pipeline', () => {
  const client = clients.public;
  /** Mostly what is valid, sometimes what is at or past a limit: most payloads pass the edge and reach the consumer. */
  const mostly = <T, U>(valid: fc.Arbitrary<T>, edge: fc.Arbitrary<U>) =>
    fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: edge, weight: 1 });
  const code = mostly(fc.stringMatching(/^[A-Z0-9-]{1,12}$/), hostile);
  const cell = mostly(
    fc.oneof(fc.integer(), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 20 })),
    fc.oneof(edgeNumbers, hostile),
  );
  const params = fc.dictionary(mostly(fc.stringMatching(/^[a-z]{1,10}$/), fc.oneof(hostile, fc.constant(''))), cell, { maxKeys: 4 });
  const payload = fc.record(
    {
      store: mostly(
        fc.constant({ id: 1 }),
        fc.oneof(
          code.map((externalId) => ({ externalId })),
          fc.record({ id: fc.integer({ min: 1, max: 5 }), externalId: code }),
        ),
      ),
      employee: fc.constant({ id: 1 }),
      customer: fc.record(
        {
          externalId: code,
          name: fc.option(mostly(fc.string({ minLength: 1, maxLength: 30 }), hostile), { nil: undefined }),
          birthDate: fc.option(mostly(fc.constant('1990-01-31'), hostile), { nil: undefined }),
        },
        { requiredKeys: ['externalId'] },
      ),
      transaction: fc.record(
        {
          journeySlug: fc.constant('loja'),
          journeyId: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
          date: fc.option(mostly(fc.constant('2026-11-20T10:00:00Z'), hostile), { nil: undefined }),
          amount: fc.option(mostly(fc.double({ min: -1e6, max: 1e6, noNaN: true }), edgeNumbers), { nil: undefined }),
          params: fc.option(params, { nil: undefined }),
        },
        { requiredKeys: ['journeySlug'] },
      ),
      rating: fc.option(fc.record({ score: mostly(fc.integer({ min: -2, max: 12 }), edgeNumbers) }), { nil: undefined }),
      ratingItems: fc.option(
        fc.array(fc.record({ classId: fc.integer({ min: 1, max: 5 }), score: mostly(fc.integer({ min: 0, max: 10 }), edgeNumbers) }), {
          maxLength: 3,
        }),
        { nil: undefined },
      ),
    },
    { requiredKeys: ['store', 'employee', 'customer', 'transaction'] },
  );

  it('never accepts a transaction that the consumer then cannot store: every accepted message is created or rejected', async () => {
    await queued.drain();
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(payload, async (body) => {
        const res = await client({ method: 'POST', path: '/v2/transactions', key: f.key, body });
        check(
          res,
          { path: '/v2/transactions' },
          routes.find((r) => r.operationId === 'postV2Transaction')!,
        );
        if (res.status !== 201) return;
        accepted++;
        const messages = await queued.drain();
        expect(messages).toHaveLength(1);
        expect((await consume(messages)).failed, JSON.stringify(body)).toEqual([]);
      }),
      { numRuns: CASES_PER_ROUTE * 2 },
    );
    expect(accepted).toBeGreaterThan(0);
  }, 600_000);
});

/** Hostile values for the workspace's fields: dates past the calendar, `next` that no Location may carry, ids out of range. */
const PAGE_VALUES = [
  '9999-12-31',
  '+010000-01-01',
  '99999-01-01',
  '1899-12-31',
  '2100-12-31',
  '0000-00-00',
  '2026-02-30',
  '/app/\u3002x',
  '/app/%E3%80%82',
  '/app/\u0000x',
  '/app/%00x',
  '/app/\r\nset-cookie: x=1',
  '//evil.example/app',
  'https://evil.example/',
  '/app/' + 'a'.repeat(5000),
  '-1',
  '0',
  '2147483648',
  '99999999999999999999',
  '1e3',
  '\u0000',
  '%00',
  '\u0007\u001b',
  '\ud800',
  'é'.repeat(300),
  'x'.repeat(20_000),
  '<script>alert(1)</script>',
];
/** Fields no form shows but a request may carry: every page is asked for them too. */
const EXTRA_FIELDS = ['next', 'from', 'to', 'id', 'store', 'employee', 'cursor', 'limit', 'etag'];

interface PageForm {
  method: 'GET' | 'POST';
  action: string;
  multipart: boolean;
  fields: [string, string][];
}

const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!);
const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** The forms of a page as a browser would send them: each field with the value the page gave it (a select's first). */
function formsOf(html: string): PageForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map(([, open, inner]) => ({
    method: /method="post"/i.test(open!) ? 'POST' : 'GET',
    action: unescapeHtml(attribute(open!, 'action') ?? ''),
    multipart: /multipart\/form-data/.test(open!),
    fields: [...inner!.matchAll(/<input\b([^>]*)>|<(select|textarea)\b([^>]*)>([\s\S]*?)<\/\2>/g)].flatMap(
      ([, input, tag, attrs, body]) => {
        const name = attribute(input ?? attrs!, 'name');
        if (!name || / type="(file|submit|checkbox|radio)"/.test(input ?? '')) return [];
        const value =
          input !== undefined
            ? (attribute(input, 'value') ?? '')
            : tag === 'select'
              ? (/<option value="([^"]*)"/.exec(body!)?.[1] ?? '')
              : body!;
        return [[name, unescapeHtml(value)] as [string, string]];
      },
    ),
  }));
}

describe("bad input on the workspace's pages, over HTTP, signed in", () => {
  const tally = { requests: 0, serverErrors: 0, noAnswer: 0, forms: 0 };
  let gateway: Gateway;
  let cookie: string;
  let refreshCookie: string;
  let email: string;
  const PASSWORD = 'Hostile-pages-1!';
  const crashes: unknown[] = [];
  const crashed = (error: unknown) => crashes.push(error);
  // A tenant of its own: a request the route tests sent that was valid by chance (a store deleted, a case moved)
  // must not decide which pages answer here.
  let f: Fixture;

  beforeAll(async () => {
    f = await fixture();
    gateway = await startGateway({ api: 'public', port: 0 });
    process.on('unhandledRejection', crashed);
    process.on('uncaughtException', crashed);
    email = `hostile-${f.tenantId}@test.local`;
    await tenantService.createUser(f.tenantId, { name: email, scope: 'all', role: 'admin' });
    const directory = cognitoUserDirectory(process.env[ENV.userPoolId]!);
    await directory.invite({ email, tenantId: f.tenantId, temporaryPassword: 'Temp-hostile-1!' });
    await directory.setPassword(email, PASSWORD);
    const outcome = await cognitoIdentityProvider(() => process.env[ENV.userPoolClientId]!).signIn(email, PASSWORD);
    if (outcome.kind !== 'signed-in') throw new Error(`not signed in: ${outcome.kind}`);
    cookie = `sid=${outcome.tokens.idToken}`;
    refreshCookie = `srt=${outcome.tokens.refreshToken}`;
  }, 60_000);
  afterAll(async () => {
    process.off('unhandledRejection', crashed);
    process.off('uncaughtException', crashed);
    await gateway?.close();
    console.info(
      `bad input on the pages: ${tally.requests} requests over ${tally.forms} forms, ${tally.serverErrors} server errors, ${tally.noAnswer + crashes.length} process crashes`,
    );
  });

  async function send(form: PageForm, fields: [string, string][]): Promise<string | undefined> {
    const query = form.method === 'GET' ? `?${new URLSearchParams(fields)}` : '';
    const target = `${gateway.url}${form.action}${query}`;
    const cookies = form.action.includes('/session/') ? `${cookie}; ${refreshCookie}` : cookie;
    let body: FormData | string | undefined;
    if (form.method === 'POST') {
      if (form.multipart) {
        body = new FormData();
        for (const [name, value] of fields) body.append(name, value);
      } else body = new URLSearchParams(fields).toString();
    }
    tally.requests++;
    try {
      const res = await fetch(target, {
        method: form.method,
        redirect: 'manual',
        headers: {
          cookie: cookies,
          origin: gateway.url,
          ...(typeof body === 'string' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(body !== undefined ? { body } : {}),
      });
      await res.arrayBuffer();
      if (res.status < 500) return undefined;
      tally.serverErrors++;
      return `${form.method} ${form.action} ${JSON.stringify(fields).slice(0, 200)} -> ${res.status}`;
    } catch (error) {
      tally.noAnswer++;
      return `${form.method} ${form.action} ${JSON.stringify(fields).slice(0, 200)} -> no answer (${String(error)})`;
    }
  }

  it('answers every hostile value of every field of every page and form below 500, and the process lives on', async () => {
    const pages = [
      '/app/results',
      '/app/answers',
      '/app/cases',
      `/app/cases/${f.caseId}`,
      '/app/admin/journeys',
      '/app/admin/themes',
      '/app/admin/webhooks',
      '/app/admin/users',
      '/app/admin/keys',
      '/app/admin/brand',
      '/app/sign-in',
    ];
    const forms: PageForm[] = [
      // The pages themselves, and the session's own entries with their `next`.
      ...pages.map((action) => ({ method: 'GET' as const, action, multipart: false, fields: [] as [string, string][] })),
      { method: 'GET', action: '/app/session/refresh', multipart: false, fields: [['next', '/app/results']] },
      {
        method: 'POST',
        action: '/app/sign-in',
        multipart: false,
        fields: [
          ['email', email],
          ['password', PASSWORD],
          ['next', '/app/results'],
        ],
      },
      { method: 'GET', action: `/app/cases/{id}`, multipart: false, fields: [] },
    ];
    for (const page of pages) {
      const res = await fetch(`${gateway.url}${page}`, { headers: { cookie }, redirect: 'manual' });
      const html = await res.text();
      expect(res.status, `${page} (${res.headers.get('location') ?? ''}): ${html.slice(0, 500)}`).toBe(200);
      forms.push(...formsOf(html).filter((form) => form.action.startsWith('/app/') && !form.action.includes('sign-out')));
    }
    tally.forms = forms.length;
    // In `npm test`, one value of each kind: a date past the calendar, a `next` no Location carries, an id past any, a long string.
    const values = FULL ? PAGE_VALUES : ['9999-12-31', '/app/\u3002x', '99999999999999999999', 'x'.repeat(20_000)];
    const failures: string[] = [];
    for (const form of forms) {
      const own = form.fields.map(([name]) => name);
      // In `npm test` the fields no form shows go together in one request a value; with RELIABILITY_FULL=1, one each.
      const names: string[][] = FULL
        ? [...new Set([...own, ...EXTRA_FIELDS])].map((name) => [name])
        : [...own.map((name) => [name]), EXTRA_FIELDS.filter((name) => !own.includes(name))];
      for (const value of values) {
        if (form.action.includes('{id}')) {
          const failure = await send({ ...form, action: form.action.replace('{id}', encodePathSegment(value)) }, form.fields);
          if (failure) failures.push(failure);
          continue;
        }
        for (const set of names) {
          const failure = await send(form, [
            ...form.fields.filter(([field]) => !set.includes(field)),
            ...set.map((name): [string, string] => [name, value]),
          ]);
          if (failure) failures.push(failure);
        }
      }
    }
    expect(crashes).toEqual([]);
    expect(failures).toEqual([]);
    expect(tally.forms).toBeGreaterThan(15);
  }, 1_800_000);
});
