import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../infra/routes.js';
import { validRequests } from '../../infra/examples.js';
import { inProcess } from '../support/api.js';
import { consume, usePrivateQueue } from '../support/queues.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';
import { v2Payload } from '../support/transactions.js';

const api = inProcess('public');
const CONFIG = '/public/admin/config';
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await newTenant();
});

const read = () => api({ path: CONFIG, key: tenant.adminKey });
const replace = (body: unknown, etag?: string) =>
  api({ method: 'PUT', path: CONFIG, key: tenant.adminKey, body, headers: etag === undefined ? {} : { 'if-match': etag } });

/** A journey the demo configuration lacks, on its class 1. */
const newJourney = (id: number, slug: string) => ({ id, slug, indicator: 'nps', classes: [1], channels: ['email'] });

describe('GET /public/admin/config', () => {
  it('answers the whole configuration with an ETag, and no keys, user tokens or signing generations', async () => {
    // Prepare / Act
    const res = await read();

    // Assess
    expect(res.status).toBe(200);
    expect(res.headers.etag).toMatch(/^"\d+"$/);
    expect(Object.keys(res.body).sort()).toEqual(['cases', 'classes', 'delivery', 'groups', 'journeys', 'name', 'privacy']);
    expect(res.body.journeys.map((j: { slug: string }) => j.slug)).toEqual(DEMO_SETTINGS.journeys.map((j) => j.slug));
    expect(res.body.classes).toHaveLength(4);
    expect(res.text).not.toContain('signing');
    expect(res.text).not.toContain(tenant.key);
  });
});

describe('PUT /public/admin/config', () => {
  const transactions = usePrivateQueue('transactions');

  it('adds a journey that a v2 transaction posted at once is created on, with what changed in the answer', async () => {
    // Prepare: a consumer that has read the configuration already (its process keeps it), as a running one has.
    const warm = await consume([
      { version: 1, tenantId: tenant.tenantId, requestId: 'warm', receivedAt: new Date().toISOString(), payload: v2Payload() },
    ]);
    expect(warm.failed).toEqual([]);
    const before = await read();

    // Act
    const res = await replace({ ...before.body, journeys: [...before.body.journeys, newJourney(40, 'balcao')] }, before.headers.etag);
    const posted = await api({
      method: 'POST',
      path: '/v2/transactions',
      key: tenant.key,
      body: v2Payload({ transaction: { journeySlug: 'balcao', externalId: 'ADMIN-1' } }),
    });
    const { failed } = await consume(await transactions.drain());
    const outcome = await api({ path: `/v2/transactions/requests/${posted.headers['x-request-id']}`, key: tenant.key });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.changes).toEqual([{ path: 'journeys[id=40]', old: null, new: expect.objectContaining(newJourney(40, 'balcao')) }]);
    expect(res.headers.etag).toBe(res.body.etag);
    expect(res.headers.etag).not.toBe(before.headers.etag);
    expect(posted.status).toBe(201);
    expect(failed).toEqual([]);
    expect(outcome.body).toMatchObject({ status: 'created', errors: [] });
    expect((await read()).body.journeys.map((j: { slug: string }) => j.slug)).toContain('balcao');
  });

  it('removes what the new configuration no longer lists: a transaction on a removed journey is rejected at once', async () => {
    const before = await read();
    const res = await replace(
      { ...before.body, journeys: before.body.journeys.filter((j: { slug: string }) => j.slug !== 'ecommerce') },
      before.headers.etag,
    );
    const posted = await api({
      method: 'POST',
      path: '/v2/transactions',
      key: tenant.key,
      body: v2Payload({ transaction: { journeySlug: 'ecommerce', externalId: 'ADMIN-2' } }),
    });
    await consume(await transactions.drain());
    const outcome = await api({ path: `/v2/transactions/requests/${posted.headers['x-request-id']}`, key: tenant.key });

    expect(res.status).toBe(200);
    expect(res.body.changes).toEqual([{ path: 'journeys[id=2]', old: expect.objectContaining({ slug: 'ecommerce' }), new: null }]);
    expect(outcome.body.status).toBe('rejected');
    expect((await read()).body.journeys.map((j: { slug: string }) => j.slug)).not.toContain('ecommerce');
  });

  it('refuses a stale If-Match with 412 and a missing one with 428, changing nothing', async () => {
    const before = await read();
    const fresh = await replace({ ...before.body, name: 'renamed' }, before.headers.etag);
    const current = await read();

    const stale = await replace({ ...before.body, name: 'stale' }, before.headers.etag);
    const missing = await replace({ ...before.body, name: 'missing' });
    const foreign = await replace({ ...before.body, name: 'any' }, '"not-a-version"');

    expect(fresh.status).toBe(200);
    expect(fresh.body.changes).toEqual([{ path: 'name', old: before.body.name, new: 'renamed' }]);
    expect(stale.status).toBe(412);
    expect(stale.body.type).toBe('/problems/precondition-failed');
    expect(missing.status).toBe(428);
    expect(foreign.status).toBe(412);
    const after = await read();
    expect(after.headers.etag).toBe(current.headers.etag);
    expect(after.body).toEqual(current.body);
  });

  it('of two replacements made from the same read, writes exactly one (real concurrency)', async () => {
    const before = await read();
    const answers = await Promise.all(['first', 'second', 'third'].map((name) => replace({ ...before.body, name }, before.headers.etag)));

    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 412, 412]);
    const winner = answers.find((a) => a.status === 200)!;
    expect((await read()).body.name).toBe(winner.body.changes[0].new);
  });

  it('validates with the tenant file schema, naming every wrong field, and changes nothing', async () => {
    const before = await read();
    const res = await replace(
      {
        ...before.body,
        classes: [{ id: 1, label: 'A', type: 'stars' }],
        journeys: [{ ...newJourney(5, 'Bad Slug'), classes: [9] }],
        delivery: { email: { from: 'not-an-address' } },
        surprise: true,
      },
      before.headers.etag,
    );

    expect(res.status).toBe(400);
    const paths = res.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['classes.0.type', 'journeys.0.slug', 'delivery.email.from', 'surprise']));
    expect(await read()).toMatchObject({ headers: { etag: before.headers.etag }, body: before.body });
  });
});

describe('GET /public/admin/audit', () => {
  it('lists each change with who and what, newest first, by cursor and period; refused and empty changes leave none', async () => {
    // Prepare: a tenant of its own, changed twice by its admin key and once refused.
    const own = await newTenant();
    const ownRead = () => api({ path: CONFIG, key: own.adminKey });
    const put = (body: unknown, etag: string | undefined) =>
      api({ method: 'PUT', path: CONFIG, key: own.adminKey, body, headers: { 'if-match': etag ?? '' } });
    const first = await ownRead();
    await put({ ...first.body, name: 'one' }, first.headers.etag);
    const second = await ownRead();
    await put({ ...second.body, privacy: { retentionDays: 90 } }, second.headers.etag);
    await put({ ...second.body, name: 'refused' }, second.headers.etag);
    const third = await ownRead();
    await put(third.body, third.headers.etag);

    // Act
    const all = await api({ path: '/public/admin/audit', key: own.adminKey });
    const page1 = await api({ path: '/public/admin/audit', key: own.adminKey, query: { limit: 1 } });
    const page2 = await api({ path: '/public/admin/audit', key: own.adminKey, query: { limit: 1, cursor: page1.body.next_cursor } });
    const future = await api({ path: '/public/admin/audit', key: own.adminKey, query: { from: '2100-01-01' } });
    const publicKey = await api({ path: '/public/admin/audit', key: own.key });

    // Assess
    expect(all.status).toBe(200);
    expect(all.body.data.map((e: { changes: unknown }) => e.changes)).toEqual([
      [{ path: 'privacy.retentionDays', old: null, new: 90 }],
      [{ path: 'name', old: first.body.name, new: 'one' }],
    ]);
    const [latest] = all.body.data;
    expect(latest).toMatchObject({ action: 'config.replace', actor: { keyId: expect.stringMatching(/^[0-9a-f]{12}$/) } });
    expect(Date.parse(latest.at)).toBeGreaterThan(Date.now() - 60_000);
    expect(all.text).not.toContain(own.adminKey);
    expect([...page1.body.data, ...page2.body.data]).toEqual(all.body.data);
    expect(future.body).toEqual({ data: [], next_cursor: null });
    expect(publicKey.status).toBe(403);
  });
});

describe('admin routes and keys', () => {
  const adminRoutes = routes.filter((r) => r.admin);

  it('has admin routes', () =>
    expect(adminRoutes.map((r) => r.operationId)).toEqual([
      'retryWebhookDelivery',
      'replayWebhookDeliveries',
      'getAdminConfig',
      'listAdminAudit',
      'putAdminConfig',
      'rotateAdminWebhookSecret',
      'listAdminKeys',
      'createAdminKey',
      'revokeAdminKey',
      'rotateAdminKey',
      'listAdminUsers',
      'createAdminUser',
      'updateAdminUser',
    ]));

  it.each(adminRoutes.map((r) => r.operationId))('%s: a public key gets 403 and changes nothing', async (operationId) => {
    const before = await read();
    const request = validRequests[operationId]!({ configEtag: before.headers.etag } as never);
    const res = await api({ ...request, key: tenant.key });

    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      type: '/problems/forbidden',
      detail: 'This route needs an API key with scope admin, or the user token of a user with role admin.',
    });
    expect(await read()).toMatchObject({ headers: { etag: before.headers.etag } });
  });

  it('an admin key also calls the public API', async () => {
    const res = await api({ path: '/public/store/1', key: tenant.adminKey });
    expect(res.status).toBe(200);
  });
});
