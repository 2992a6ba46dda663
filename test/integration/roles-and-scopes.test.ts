import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createGateway } from '../../infra/local/gateway.js';
import { cognitoIdentityProvider, cognitoUserDirectory } from '../../shared/adapters/cognito.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { ENV } from '../../shared/config.js';
import type { UserScope } from '../../shared/tenants/config-schema.js';
import type { UserRole } from '../../shared/access/ports.js';
import { inProcess, type ApiResponse } from '../support/api.js';
import { usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * docs/roles-and-scopes.md, row by row: each row's representative request made as each column's caller, answering the
 * status its cell names, and nothing of a store outside a limited caller's scope.
 */
usePrivateQueue('surveyDispatch');
const api = inProcess('public');
const gateway = createGateway({ api: 'public' });
const PASSWORD = 'Roles-and-scopes-1!';
const SAME_ORIGIN = { origin: 'http://localhost', host: 'localhost' };
const SOME: UserScope = { stores: [1], groups: [1] };
/** What only store 2 holds: a customer's name and a comment with a CPF, which no store-1 caller may be shown. */
const STORE_2_NAME = 'Cliente Da Loja Dois';
const STORE_2_COMMENT = 'Atendimento ruim, meu CPF 529.982.247-25';

/** One table of the doc: its columns, and each row's id and cells. */
function tablesOf(markdown: string) {
  const tables: { columns: string[]; rows: { id: string; cells: Record<string, string> }[] }[] = [];
  let current: (typeof tables)[number] | undefined;
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|')) {
      current = undefined;
      continue;
    }
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (!current) tables.push((current = { columns: cells, rows: [] }));
    else if (!cells[0]!.startsWith('---'))
      current.rows.push({ id: cells[0]!, cells: Object.fromEntries(current.columns.map((c, i) => [c, cells[i]!])) });
  }
  return tables;
}
const [apiTable, workspaceTable] = tablesOf(readFileSync(new URL('../../docs/roles-and-scopes.md', import.meta.url), 'utf8'));
const CALLERS = ['API key', 'admin key', 'member, every store', 'member, some stores', 'admin, every store', 'admin, some stores'];
const USERS = CALLERS.slice(2);

/** A caller: the key, and the user's token and session for the user columns. */
interface Caller {
  column: string;
  key: string;
  token?: string;
  cookie?: string;
  limited: boolean;
}
let tenant: TestTenant;
const callers = new Map<string, Caller>();
let store2Rating: number;
let customerId: number;

async function user(email: string, scope: UserScope, role: UserRole) {
  const { token } = await tenantService.createUser(tenant.tenantId, { name: email, scope, role });
  const directory = cognitoUserDirectory(process.env[ENV.userPoolId]!);
  await directory.invite({ email, tenantId: tenant.tenantId, temporaryPassword: 'Temp-roles-1!' });
  await directory.setPassword(email, PASSWORD);
  const outcome = await cognitoIdentityProvider(() => process.env[ENV.userPoolClientId]!).signIn(email, PASSWORD);
  if (outcome.kind !== 'signed-in') throw new Error(`not signed in: ${outcome.kind}`);
  return { token: token!, cookie: `sid=${outcome.tokens.idToken}` };
}

beforeAll(async () => {
  tenant = await newTenant();
  expect((await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja Dois' } })).body.id).toBe(2);
  await registerSale(api, tenant.key, { store_id: 1, score: 9, comment: 'Loja um, tudo certo' });
  store2Rating = await registerSale(api, tenant.key, { store_id: 2, score: 2, comment: STORE_2_COMMENT, name: STORE_2_NAME });
  customerId = (await api({ path: `/public/transaction/${store2Rating}`, key: tenant.key })).body.customer_id;
  callers.set('API key', { column: 'API key', key: tenant.key, limited: false });
  callers.set('admin key', { column: 'admin key', key: tenant.adminKey, limited: false });
  for (const column of USERS) {
    const [role, scope] = column.split(', ') as [UserRole, string];
    const limited = scope === 'some stores';
    const email = `${role}-${limited ? 'some' : 'every'}-${tenant.tenantId}@roles.example`;
    callers.set(column, { column, key: tenant.key, limited, ...(await user(email, limited ? SOME : 'all', role)) });
  }
}, 120_000);

/** A request through the API as a caller: its key, and its user's token when it has one. */
const call = (caller: Caller, request: Parameters<typeof api>[0]) =>
  api({ ...request, key: caller.key, headers: { ...request.headers, ...(caller.token ? { 'x-service-user-token': caller.token } : {}) } });
const page = (caller: Caller, url: string) => gateway({ method: 'GET', url, headers: { cookie: caller.cookie! }, body: Buffer.alloc(0) });
const postForm = (caller: Caller, url: string, form: [string, string][]) =>
  gateway({
    method: 'POST',
    url,
    headers: { cookie: caller.cookie!, 'content-type': 'application/x-www-form-urlencoded', ...SAME_ORIGIN },
    body: Buffer.from(new URLSearchParams(form).toString()),
  });
const config = async () => {
  const read = await api({ path: '/public/admin/config', key: tenant.adminKey });
  return { body: read.body, etag: read.headers.etag! };
};
const webhookUrls = async () => ((await config()).body.delivery?.webhooks ?? []).map((w: { url: string }) => w.url);
/** A refusal names why and nothing of the tenant. */
const refusedCleanly = (res: ApiResponse) => {
  expect(res.body.type).toBe('/problems/forbidden');
  expect(res.text).not.toContain(STORE_2_COMMENT);
  expect(res.text).not.toContain('webhooks');
};
const slug = (column: string) => column.replace(/\W+/g, '-');

/** Each row: the caller's request, its status, and what else the caller must (not) see. */
const API_ROWS: Record<string, (caller: Caller) => Promise<number>> = {
  data: async (caller) => {
    const res = await call(caller, { path: `/public/rating/formbuilder/${store2Rating}` });
    if (res.status === 200) expect(res.text).toContain(STORE_2_COMMENT);
    return res.status;
  },
  'scoped-reads': async (caller) => {
    const res = await call(caller, { path: '/public/answers' });
    if (res.status === 200) {
      const stores = new Set(res.body.data.map((a: { store: number }) => a.store));
      expect(stores).toEqual(new Set(caller.limited ? [1] : [1, 2]));
      expect(res.text.includes(STORE_2_COMMENT)).toBe(!caller.limited);
    }
    return res.status;
  },
  customers: async (caller) => {
    const res = await call(caller, { path: '/public/customer', query: { limit: 100 } });
    if (res.status === 200) expect(res.text).toContain(STORE_2_NAME);
    else expect(res.text).not.toContain(STORE_2_NAME);
    return res.status;
  },
  privacy: async (caller) => (await call(caller, { path: '/public/privacy/access', query: { customer: customerId } })).status,
  config: async (caller) => {
    const before = await config();
    const url = `https://hooks.example.com/${slug(caller.column)}`;
    const delivery = { ...before.body.delivery, webhooks: [...(before.body.delivery?.webhooks ?? []), { url, includeComment: true }] };
    const res = await call(caller, {
      method: 'PUT',
      path: '/public/admin/config',
      body: { ...before.body, delivery },
      headers: { 'if-match': before.etag },
    });
    if (res.status !== 200) {
      refusedCleanly(res);
      // A store-limited admin cannot add a webhook at all: the configuration is as it was.
      expect(await config()).toEqual(before);
    } else expect(await webhookUrls()).toContain(url);
    return res.status;
  },
  secrets: async (caller) => {
    const res = await call(caller, { method: 'POST', path: '/public/admin/webhooks/rotate', body: { url: ENDPOINT, overlap_hours: 0 } });
    if (res.status !== 201) {
      refusedCleanly(res);
      expect(res.text).not.toMatch(/whsec_|secret"/);
    }
    return res.status;
  },
  keys: async (caller) => {
    const issued = await api({
      method: 'POST',
      path: '/public/admin/keys',
      key: tenant.adminKey,
      body: { scope: 'public', name: slug(caller.column) },
    });
    const res = await call(caller, { method: 'DELETE', path: `/public/admin/keys/${issued.body.id}` });
    const listed = (await api({ path: '/public/admin/keys', key: tenant.adminKey })).body.data.find(
      (k: { id: string }) => k.id === issued.body.id,
    );
    if (res.status !== 200) {
      refusedCleanly(res);
      expect(listed.revoked_at).toBeNull();
      expect((await api({ path: '/public/store/1', key: issued.body.key })).status).toBe(200);
    } else expect(listed.revoked_at).not.toBeNull();
    return res.status;
  },
  users: async (caller) => {
    const email = `novo-${slug(caller.column)}-${tenant.tenantId}@roles.example`;
    const res = await call(caller, { method: 'POST', path: '/public/admin/users', body: { email, scope: { stores: [1], groups: [] } } });
    if (res.status !== 201) refusedCleanly(res);
    return res.status;
  },
};
const ENDPOINT = 'https://hooks.example.com/signed';

const WORKSPACE_ROWS: Record<string, (caller: Caller) => Promise<number>> = {
  pages: async (caller) => {
    const res = await page(caller, '/app/answers');
    expect(res.body.toString().includes(STORE_2_COMMENT)).toBe(!caller.limited);
    return res.status;
  },
  'admin-pages': async (caller) => {
    const before = await config();
    const url = `https://hooks.example.com/page-${slug(caller.column)}`;
    const res = await postForm(caller, '/app/admin/webhooks', [
      ['etag', before.etag.replace(/"/g, '')],
      ['action', 'add'],
      ['url', url],
      ['includeComment', 'true'],
    ]);
    if (res.status === 303) expect(await webhookUrls()).toContain(url);
    else {
      expect(await config()).toEqual(before);
      expect(res.body.toString()).not.toContain(ENDPOINT);
    }
    // The pages link only what the rule lets the caller open.
    const nav = (await page(caller, '/app/answers')).body.toString();
    const opens = res.status === 303;
    expect(['general', 'journeys', 'webhooks'].some((path) => nav.includes(`href="/app/admin/${path}"`))).toBe(opens);
    if (caller.column === 'admin, some stores') {
      expect(nav).toContain('<a href="/app/admin/users">Admin</a>');
      const users = (await page(caller, '/app/admin/users')).body.toString();
      for (const path of ['general', 'journeys', 'webhooks', 'keys', 'brand']) expect(users).not.toContain(`href="/app/admin/${path}"`);
      expect((await page(caller, '/app/admin/webhooks')).status).toBe(403);
    }
    return res.status;
  },
  'users-page': async (caller) => (await page(caller, '/app/admin/users')).status,
};

const expected = (cell: string) => Number(/^(\d{3})\b/.exec(cell)?.[1]);

describe('docs/roles-and-scopes.md', () => {
  it('has a check for every row of its tables, and a row for every check', () => {
    expect(apiTable!.columns.slice(3)).toEqual(CALLERS);
    expect(workspaceTable!.columns.slice(3)).toEqual(USERS);
    expect(apiTable!.rows.map((row) => row.id)).toEqual(Object.keys(API_ROWS));
    expect(workspaceTable!.rows.map((row) => row.id)).toEqual(Object.keys(WORKSPACE_ROWS));
  });

  beforeAll(async () => {
    const before = await config();
    const delivery = { ...before.body.delivery, webhooks: [{ url: ENDPOINT }] };
    const put = await api({
      method: 'PUT',
      path: '/public/admin/config',
      key: tenant.adminKey,
      body: { ...before.body, delivery },
      headers: { 'if-match': before.etag },
    });
    expect(put.status, put.text).toBe(200);
  });

  describe('through the API', () => {
    it.each(apiTable!.rows.map((row) => [row.id, row] as const))('%s', async (_, row) => {
      const answered: Record<string, number> = {};
      for (const column of CALLERS) answered[column] = await API_ROWS[row.id]!(callers.get(column)!);
      expect(answered).toEqual(Object.fromEntries(CALLERS.map((column) => [column, expected(row.cells[column]!)])));
    });
  });

  describe('in the workspace', () => {
    it.each(workspaceTable!.rows.map((row) => [row.id, row] as const))('%s', async (_, row) => {
      const answered: Record<string, number> = {};
      for (const column of USERS) answered[column] = await WORKSPACE_ROWS[row.id]!(callers.get(column)!);
      expect(answered).toEqual(Object.fromEntries(USERS.map((column) => [column, expected(row.cells[column]!)])));
    });
  });
});
