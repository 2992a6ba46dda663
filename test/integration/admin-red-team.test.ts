import { AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { beforeAll, describe, expect, it } from 'vitest';
import { cognitoClient } from '../../infra/local/cognito.js';
import { auditLog } from '../../shared/adapters/audit-log.js';
import { readSettings } from '../../shared/adapters/settings-repository.js';
import { apiKeys, keyOfValue } from '../../shared/adapters/wiring/access.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { eventEndpoint } from '../../shared/events/signature.js';
import { ENV } from '../../shared/config.js';
import { inProcess } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * An outside review of the admin API (issues 34 and 35): each test is an attack that worked before its fix, as a
 * hostile tenant, a curious manager or a careless admin would make it, against the emulators.
 */
const api = inProcess('public');
const USERS = '/public/admin/users';
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  [a, b] = await Promise.all([newTenant(), newTenant()]);
});

const pool = () => cognitoClient(process.env.AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER!);
const signInEnabled = async (email: string) =>
  (await pool().send(new AdminGetUserCommand({ UserPoolId: process.env[ENV.userPoolId]!, Username: email }))).Enabled;
const createUser = (tenant: TestTenant, email: string) =>
  api({ method: 'POST', path: USERS, key: tenant.adminKey, body: { email, scope: 'all' } });
const patchUser = (tenant: TestTenant, email: string, body: unknown) =>
  api({ method: 'PATCH', path: `${USERS}/${encodeURIComponent(email)}`, key: tenant.adminKey, body });
const listed = async (tenant: TestTenant, email: string) =>
  (
    (await api({ path: USERS, key: tenant.adminKey })).body.data as {
      name: string;
      scope: unknown;
      role: string;
      disabled_at: string | null;
    }[]
  ).find((user) => user.name === email)!;

describe('users of another tenant', () => {
  it("leaves the sign-in of another tenant's manager alone when an admin disables or enables a user of the same address", async () => {
    // Prepare: a manager of tenant B, and a user of tenant A of the same address (the pool is the deployment's). A's
    // admin can no longer make one (409: the address cannot be invited here), but the operator's tenant file can, and
    // users made before that refusal exist.
    const victim = `vitima-${b.tenantId}@outro.example`;
    expect((await createUser(b, victim)).status).toBe(201);
    const refused = await createUser(a, victim);
    await tenantService.createUser(a.tenantId, { name: victim, scope: 'all' });
    const other = `desligada-${b.tenantId}@outro.example`;
    await createUser(b, other);
    await tenantService.createUser(a.tenantId, { name: other, scope: 'all' });
    await patchUser(b, other, { disabled: true });

    // Act: A disables its user of the victim's address, and enables its user of the address B disabled.
    const disabled = await patchUser(a, victim, { disabled: true });
    const enabled = await patchUser(a, other, { disabled: false });

    // Assess: A's own users changed; B's managers' sign-in is as B left it.
    expect(refused.status).toBe(409);
    expect([disabled.status, enabled.status]).toEqual([200, 200]);
    expect((await listed(a, victim)).disabled_at).not.toBeNull();
    expect(await signInEnabled(victim)).toBe(true);
    expect(await signInEnabled(other)).toBe(false);
    expect((await listed(b, victim)).disabled_at).toBeNull();
  });

  it('still disables and enables the sign-in of its own manager', async () => {
    const own = `propria-${a.tenantId}@a.example`;
    await createUser(a, own);

    const off = await patchUser(a, own, { disabled: true });
    const offInCognito = await signInEnabled(own);
    const on = await patchUser(a, own, { disabled: false });

    expect([off.status, on.status]).toEqual([200, 200]);
    expect([offInCognito, await signInEnabled(own)]).toEqual([false, true]);
  });
});

describe('concurrent changes of one user', () => {
  it('keeps a disable sent at the same time as scope and role changes (real concurrency, 10 rounds)', async () => {
    const email = `corrida-${a.tenantId}@a.example`;
    await createUser(a, email);
    const lost: string[] = [];
    for (let round = 0; round < 10; round++) {
      // Prepare: enabled, every store.
      await patchUser(a, email, { disabled: false, scope: 'all', role: 'member' });

      // Act: one admin disables the user while others change their scope and role.
      const answers = await Promise.all([
        patchUser(a, email, { disabled: true }),
        patchUser(a, email, { scope: { stores: [1], groups: [] } }),
        patchUser(a, email, { scope: { stores: [1], groups: [] } }),
        patchUser(a, email, { role: 'admin' }),
      ]);

      // Assess: every change answered 200 and every one of them holds.
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
      const user = await listed(a, email);
      if (user.disabled_at === null) lost.push(`round ${round}: the disable`);
      if (JSON.stringify(user.scope) !== JSON.stringify({ stores: [1], groups: [] })) lost.push(`round ${round}: the scope`);
      if (user.role !== 'admin') lost.push(`round ${round}: the role`);
    }
    expect(lost).toEqual([]);
  });
});

describe('webhook addresses in the configuration', () => {
  const CONFIG = '/public/admin/config';

  it('refuses an address that names a host after user information (plain http to any host) or carries credentials, changing nothing', async () => {
    // Prepare
    const before = await api({ path: CONFIG, key: a.adminKey });
    const withWebhook = (url: string) => ({ ...before.body, delivery: { ...before.body.delivery, webhooks: [{ url }] } });
    const replace = (body: unknown) =>
      api({ method: 'PUT', path: CONFIG, key: a.adminKey, body, headers: { 'if-match': before.headers.etag! } });

    // Act: the https rule's local exception read as a user name, and a password in an https address.
    const plain = await replace(withWebhook('http://localhost:x@receiver.example/hook'));
    const secret = await replace(withWebhook('https://recebedor:s3nha-do-cliente@receiver.example/hook'));
    const chatbot = await replace({
      ...before.body,
      delivery: { ...before.body.delivery, chatbot: { url: 'http://127.0.0.1:1@bot.example/' } },
    });

    // Assess
    expect([plain.status, secret.status, chatbot.status]).toEqual([400, 400, 400]);
    expect(new Set(plain.body.errors.map((e: { path: string }) => e.path))).toEqual(new Set(['delivery.webhooks.0.url']));
    expect(secret.body.errors.map((e: { path: string }) => e.path)).toEqual(['delivery.webhooks.0.url']);
    expect(new Set(chatbot.body.errors.map((e: { path: string }) => e.path))).toEqual(new Set(['delivery.chatbot.url']));
    expect(JSON.stringify(secret.body)).not.toContain('s3nha-do-cliente');
    expect(await api({ path: CONFIG, key: a.adminKey })).toMatchObject({ headers: { etag: before.headers.etag }, body: before.body });
  });

  it('still takes an https address with a port, a path and a query, and a local http receiver', async () => {
    const before = await api({ path: CONFIG, key: a.adminKey });
    const webhooks = [{ url: 'https://receiver.example:8443/hooks/survey?source=pesquisa' }, { url: 'http://127.0.0.1:9430/hook' }];

    const res = await api({
      method: 'PUT',
      path: CONFIG,
      key: a.adminKey,
      body: { ...before.body, delivery: { ...before.body.delivery, webhooks } },
      headers: { 'if-match': before.headers.etag! },
    });

    expect(res.status).toBe(200);
    expect((await api({ path: CONFIG, key: a.adminKey })).body.delivery.webhooks).toEqual(webhooks);
  });
});

describe('concurrent revocations of one key', () => {
  it('revokes once: every answer gives the same revocation time, and the audit log has one entry (real concurrency)', async () => {
    // Prepare
    const own = await newTenant();
    const { body: key } = await api({
      method: 'POST',
      path: '/public/admin/keys',
      key: own.adminKey,
      body: { scope: 'public', name: 'duas-vezes' },
    });

    // Act: four admins revoke it at once.
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => api({ method: 'DELETE', path: `/public/admin/keys/${key.id}`, key: own.adminKey })),
    );

    // Assess
    const listed = ((await api({ path: '/public/admin/keys', key: own.adminKey })).body.data as { id: string; revoked_at: string }[]).find(
      (k) => k.id === key.id,
    )!;
    const audit = (await api({ path: '/public/admin/audit', key: own.adminKey })).body.data as { action: string }[];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.body.revoked_at))).toEqual(new Set([listed.revoked_at]));
    expect(audit.filter((entry) => entry.action === 'key.revoke')).toHaveLength(1);
    expect((await api({ path: '/public/store/1', key: key.key })).status).toBe(401);
    // The operator's command (revoke-key --key) still finds a revoked key, keeps its revocation time, and finds no key
    // that never was.
    const operators = (await keyOfValue(key.key))!;
    expect((await apiKeys.revokeKey(operators.tenantId, { keyId: operators.keyId, actor: { operator: true } })).revoked_at).toBe(
      listed.revoked_at,
    );
    expect(await keyOfValue('ssk_never-issued-0000000000000000')).toBeUndefined();
  });
});

describe('webhook secret rotations', () => {
  it('keeps the secret receivers hold signing through its overlap: of two rotations at once one is taken, another waits for the overlap to end', async () => {
    // Prepare: an event endpoint at generation 1, the secret its receiver holds.
    const own = await newTenant();
    const url = 'https://receiver.example/rotacao';
    const config = await api({ path: '/public/admin/config', key: own.adminKey });
    await api({
      method: 'PUT',
      path: '/public/admin/config',
      key: own.adminKey,
      body: { ...config.body, delivery: { ...config.body.delivery, webhooks: [{ url }] } },
      headers: { 'if-match': config.headers.etag! },
    });
    const rotate = (overlap_hours: number) =>
      api({ method: 'POST', path: '/public/admin/webhooks/rotate', key: own.adminKey, body: { url, overlap_hours } });
    const generations = async () => (await readSettings(own.tenantId)).delivery.signing?.[eventEndpoint(url)];

    // Act: two admins rotate at once with a day's overlap; one tries again; then a hard cutover.
    const atOnce = await Promise.all([rotate(24), rotate(24)]);
    const during = await generations();
    const again = await rotate(24);
    const cutover = await rotate(0);

    // Assess
    expect(atOnce.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(during).toMatchObject({ current: 2, previous: { generation: 1 } });
    expect(Date.parse(during!.previous!.until)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/overlap_hours 0/);
    expect(cutover.status).toBe(201);
    expect(cutover.body.generation).toBe(3);
    const audit = (await api({ path: '/public/admin/audit', key: own.adminKey })).body.data as { action: string }[];
    expect(audit.filter((entry) => entry.action === 'webhook.rotate')).toHaveLength(2);
  });
});

describe('the audit log of a large change', () => {
  it('records a change too large for one audit item, so that a webhook added among 50 long journeys is in the log', async () => {
    // Prepare: a hostile admin pads a configuration change with journeys (at most 100: CONFIG_LIMITS) whose texts are
    // as long as they may be, until its old and new values pass DynamoDB's 400 KB item limit, hoping the audit entry
    // fails while the change stands.
    const own = await newTenant();
    const before = await api({ path: '/public/admin/config', key: own.adminKey });
    const journey = before.body.journeys[0];
    const url = 'https://exfiltra.example/respostas';
    const text = { 'pt-BR': 'x'.repeat(500), es: 'y'.repeat(500), en: 'z'.repeat(500) };
    const longThanks = Object.fromEntries(['detractor', 'passive', 'promoter', 'low', 'mid', 'high'].map((bucket) => [bucket, text]));
    const padded = {
      ...before.body,
      journeys: Array.from({ length: 50 }, (_, i) => ({ ...journey, id: i + 1, slug: `jornada-${i + 1}`, thanks: longThanks })),
      delivery: { ...before.body.delivery, webhooks: [{ url, includeComment: true }] },
    };

    // Act
    const res = await api({
      method: 'PUT',
      path: '/public/admin/config',
      key: own.adminKey,
      body: padded,
      headers: { 'if-match': before.headers.etag! },
    });
    const log = await api({ path: '/public/admin/audit', key: own.adminKey, query: { limit: '100' } });

    // Assess: the change answered what it did, and the log names it, the webhook with its values, every journey's path.
    expect(res.status).toBe(200);
    expect(log.status).toBe(200);
    const entry = (log.body.data as { action: string; changes: { path: string; old: unknown; new: unknown }[] }[]).find(
      (e) => e.action === 'config.replace',
    )!;
    expect(entry).toBeDefined();
    expect(entry.changes).toContainEqual({ path: 'delivery.webhooks', old: null, new: [{ url, includeComment: true }] });
    expect(entry.changes.filter((change) => change.path.startsWith('journeys[id=')).length).toBeGreaterThanOrEqual(50);
    expect(JSON.stringify(entry)).toContain('omitted_bytes');
    expect(log.text.length).toBeLessThan(6 * 1024 * 1024);
  }, 120_000);

  it("answers a page of entries as large as they may be under Lambda's 6 MB response, the cursor going on to every entry", async () => {
    // Prepare: 20 entries, each as large as an entry may be (values of 20 KB in 18 changes).
    const own = await newTenant();
    const value = 'x'.repeat(20_000);
    for (let i = 0; i < 20; i++)
      await auditLog.record(own.tenantId, {
        id: `grande${String(i).padStart(6, '0')}`,
        at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        actor: { keyId: 'k' },
        action: 'config.replace',
        changes: Array.from({ length: 18 }, (_, n) => ({ path: `journeys[id=${n}].name`, old: value, new: value })),
      });

    // Act: read the whole log, page by page, 20 entries a page.
    const pages: { status: number; bytes: number; count: number }[] = [];
    let cursor: string | undefined;
    do {
      const page = await api({ path: '/public/admin/audit', key: own.adminKey, query: { limit: '20', ...(cursor ? { cursor } : {}) } });
      pages.push({ status: page.status, bytes: page.text.length, count: page.body.data.length });
      cursor = page.body.next_cursor ?? undefined;
    } while (cursor && pages.length < 10);

    // Assess
    expect(pages.every((page) => page.status === 200 && page.bytes < 6 * 1024 * 1024)).toBe(true);
    expect(pages.reduce((sum, page) => sum + page.count, 0)).toBe(20);
  });
});

describe('the audit period', () => {
  it('refuses a period that ends before it starts with 422 naming to, and takes one day, or a time within that day, as a period', async () => {
    const audit = (query: Record<string, string>) => api({ path: '/public/admin/audit', key: a.adminKey, query });

    const reversed = await audit({ from: '2026-02-01', to: '2026-01-01' });
    const reversedTimes = await audit({ from: '2026-01-01T10:00:00Z', to: '2026-01-01T09:59:59Z' });
    const oneDay = await audit({ from: '2026-01-01', to: '2026-01-01' });
    const withinTheDay = await audit({ from: '2026-01-01T10:00:00Z', to: '2026-01-01' });

    expect([reversed.status, reversedTimes.status]).toEqual([422, 422]);
    expect(reversed.body.errors).toEqual([{ path: 'to', message: 'must not be before from' }]);
    expect([oneDay.status, withinTheDay.status]).toEqual([200, 200]);
  });
});

describe("a user's scope at its bounds", () => {
  it('takes 1000 stores and 1000 groups, and names the list and its bound at 1001, creating nothing', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    const email = (who: string) => `${who}-${a.tenantId}@limites.example`;

    const atBound = await api({
      method: 'POST',
      path: USERS,
      key: a.adminKey,
      body: { email: email('mil'), scope: { stores: ids(1000), groups: ids(1000) } },
    });
    const past = await api({
      method: 'POST',
      path: USERS,
      key: a.adminKey,
      body: { email: email('passou'), scope: { stores: ids(1001), groups: ids(1001) } },
    });
    const wrongType = await api({
      method: 'POST',
      path: USERS,
      key: a.adminKey,
      body: { email: email('tipo'), scope: { stores: '1,2', groups: {} } },
    });

    expect(atBound.status).toBe(201);
    expect(past.status).toBe(400);
    expect(past.body.errors).toEqual([
      { path: 'scope.stores', message: 'may list at most 1000 stores' },
      { path: 'scope.groups', message: 'may list at most 1000 groups' },
    ]);
    expect(wrongType.body.errors).toEqual([
      { path: 'scope', message: 'must be "all" or { "stores": [ids], "groups": [ids], "regions"?: [ids] }' },
    ]);
    const names = ((await api({ path: USERS, key: a.adminKey })).body.data as { name: string }[]).map((user) => user.name);
    expect(names).toContain(email('mil'));
    expect(names).not.toContain(email('passou'));
    expect(names).not.toContain(email('tipo'));
  });
});

describe('a configuration read while another replaces it', () => {
  it('refuses (412) a replacement made from a read of a configuration half written, so that the one written is whole', async () => {
    // Prepare: admin A replaces the configuration with 100 journeys and 400 groups (its writes take a while); admin B
    // reads meanwhile.
    const own = await newTenant();
    const before = await api({ path: '/public/admin/config', key: own.adminKey });
    const journey = before.body.journeys[0];
    const configA = {
      ...before.body,
      name: 'Config A',
      journeys: Array.from({ length: 100 }, (_, i) => ({ ...journey, id: i + 1, slug: `a-${i + 1}` })),
      groups: Array.from({ length: 400 }, (_, i) => ({ id: i + 1, name: `Grupo ${i + 1}` })),
    };
    const configB = { ...before.body, name: 'Config B', journeys: [{ ...journey, id: 900, slug: 'so-b' }] };
    const putA = api({
      method: 'PUT',
      path: '/public/admin/config',
      key: own.adminKey,
      headers: { 'if-match': before.headers.etag! },
      body: configA,
    });
    // Half written: A's name (written with its claim) beside only some of its journeys or groups.
    let halfWritten: string | undefined;
    for (let read = 0; read < 500 && !halfWritten; read++) {
      const seen = await api({ path: '/public/admin/config', key: own.adminKey });
      const partial = seen.body.journeys.length < configA.journeys.length || seen.body.groups.length < configA.groups.length;
      if (seen.body.name === 'Config A' && partial) halfWritten = seen.headers.etag!;
    }

    // Act: B replaces it from what it read.
    const putB = await api({
      method: 'PUT',
      path: '/public/admin/config',
      key: own.adminKey,
      headers: { 'if-match': halfWritten! },
      body: configB,
    });
    const answerA = await putA;

    // Assess: exactly one of the two is written, whole.
    expect(halfWritten).toBeDefined();
    expect([answerA.status, putB.status]).toEqual([200, 412]);
    const after = (await api({ path: '/public/admin/config', key: own.adminKey })).body;
    expect(after.name).toBe('Config A');
    expect(after.journeys.map((j: { slug: string }) => j.slug).sort()).toEqual(
      configA.journeys.map((j: { slug: string }) => j.slug).sort(),
    );
  }, 120_000);
});
