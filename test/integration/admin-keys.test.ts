import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { meter } from '../../bench/metering.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { LAST_USE_RESOLUTION_SECONDS } from '../../shared/access/tenant-access.js';
import { inProcess } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/** Without an authorizer cache (the authorizer checks every request), and with API Gateway's default 300 s. */
const api = inProcess('public');
const cached = inProcess('public', 300);
const KEYS = '/public/admin/keys';
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await newTenant();
});

afterEach(() => {
  vi.useRealTimers();
});

/** A controlled clock: Date alone is faked, so that timers and the emulators' sockets run as usual. */
function clockAt(at: string | number): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(at));
}

const issue = (body: unknown, key = tenant.adminKey) => api({ method: 'POST', path: KEYS, key, body });
const list = async (key = tenant.adminKey) => (await api({ path: KEYS, key })).body.data as Record<string, unknown>[];
const listedAs = async (id: string) => (await list()).find((k) => k.id === id)!;
/** A call a public key may make: 200 while the key works, 401 once it does not. */
const use = (key: string, client = api) => client({ path: '/public/store/1', key });

describe('POST /public/admin/keys', () => {
  it('issues a key that works at once, shows its value once, and lists it without it', async () => {
    // Prepare / Act
    const res = await issue({ scope: 'public', name: 'Caixa 1', expires_at: '2099-01-01T00:00:00Z' });

    // Assess
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ scope: 'public', name: 'Caixa 1', expires_at: '2099-01-01T00:00:00.000Z', revoked_at: null });
    expect(res.body.key).toMatch(/^ssk_[\w-]{43}$/);
    expect((await use(res.body.key)).status).toBe(200);
    const listing = await api({ path: KEYS, key: tenant.adminKey });
    expect(listing.status).toBe(200);
    expect(listing.text).not.toContain(res.body.key);
    expect(listing.body.data.find((k: { id: string }) => k.id === res.body.id)).toEqual({
      id: res.body.id,
      name: 'Caixa 1',
      scope: 'public',
      created_at: res.body.created_at,
      expires_at: '2099-01-01T00:00:00.000Z',
      revoked_at: null,
      last_used_at: expect.any(String),
      rotated_to: null,
    });
  });

  it('names every wrong field of a bad body and issues nothing', async () => {
    const before = await list();

    const res = await issue({ scope: 'root', name: '', expires_at: '2020-01-01', extra: 1 });
    const past = await issue({ scope: 'public', name: 'late', expires_at: '2020-01-01T00:00:00Z' });

    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['expires_at', 'extra', 'name', 'scope']);
    expect(past.status).toBe(400);
    expect(past.body.errors).toEqual([{ path: 'expires_at', message: 'must be in the future' }]);
    expect(await list()).toEqual(before);
  });

  it('refuses a public key with 403 on every keys route', async () => {
    for (const key of [tenant.key]) {
      expect((await issue({ scope: 'admin', name: 'escalate' }, key)).status).toBe(403);
      expect((await api({ path: KEYS, key })).status).toBe(403);
      expect((await api({ method: 'DELETE', path: `${KEYS}/000000000000`, key })).status).toBe(403);
      expect((await api({ method: 'POST', path: `${KEYS}/000000000000/rotate`, key, body: { grace_seconds: 0 } })).status).toBe(403);
    }
  });
});

describe('GET /public/admin/keys: last use', () => {
  it(`records a key's use at most once per ${LAST_USE_RESOLUTION_SECONDS} s, with one conditional write (controlled clock)`, async () => {
    // Prepare
    const { body: issued } = await issue({ scope: 'public', name: 'uso' });
    const t0 = Date.parse(issued.created_at) + 1000;
    const metered = meter(db().client);

    try {
      // Act: a first use, three more within the resolution, then one after it.
      clockAt(t0);
      metered.reset();
      await metered.run(() => use(issued.key));
      const firstWrites = metered.calls.filter((c) => c.command === 'UpdateItem');
      const first = await listedAs(issued.id);
      clockAt(t0 + 60_000);
      metered.reset();
      await metered.run(async () => {
        for (let i = 0; i < 3; i++) await use(issued.key);
      });
      const quietWrites = metered.calls.filter((c) => c.command === 'UpdateItem');
      const within = await listedAs(issued.id);
      clockAt(t0 + (LAST_USE_RESOLUTION_SECONDS + 1) * 1000);
      await use(issued.key);
      const after = await listedAs(issued.id);

      // Assess: one write (the item and its gsi1 entry: 2 write units), none while the recorded use is recent.
      expect(first.last_used_at).toBe(new Date(t0).toISOString());
      expect(firstWrites).toHaveLength(1);
      expect(firstWrites[0]!.write).toBe(2);
      expect(quietWrites).toEqual([]);
      expect(within.last_used_at).toBe(new Date(t0).toISOString());
      expect(after.last_used_at).toBe(new Date(t0 + (LAST_USE_RESOLUTION_SECONDS + 1) * 1000).toISOString());
    } finally {
      metered.stop();
    }
  });
});

describe('DELETE /public/admin/keys/{id}', () => {
  it("refuses the key from the next request, though API Gateway cached the authorizer's answer", async () => {
    // Prepare: the key's answer is in the authorizer cache.
    const { body: issued } = await issue({ scope: 'public', name: 'revogar' });
    expect((await use(issued.key, cached)).status).toBe(200);

    // Act
    const res = await api({ method: 'DELETE', path: `${KEYS}/${issued.id}`, key: tenant.adminKey });
    const again = await api({ method: 'DELETE', path: `${KEYS}/${issued.id}`, key: tenant.adminKey });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: issued.id, revoked_at: expect.any(String) });
    expect(again.body.revoked_at).toBe(res.body.revoked_at);
    expect((await use(issued.key, cached)).status).toBe(401);
    expect((await use(issued.key)).status).toBe(401);
    expect((await listedAs(issued.id)).revoked_at).toBe(res.body.revoked_at);
  });

  it("answers 404 for another tenant's key and 400 for what is no key id, revoking nothing", async () => {
    const other = await newTenant();
    const { body: foreign } = (await api({ method: 'POST', path: KEYS, key: other.adminKey, body: { scope: 'public', name: 'x' } })) as {
      body: { id: string; key: string };
    };

    const res = await api({ method: 'DELETE', path: `${KEYS}/${foreign.id}`, key: tenant.adminKey });
    const bad = await api({ method: 'DELETE', path: `${KEYS}/not-an-id`, key: tenant.adminKey });

    expect(res.status).toBe(404);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['id']);
    expect((await use(foreign.key)).status).toBe(200);
  });
});

describe('POST /public/admin/keys/{id}/rotate', () => {
  it('keeps the old key working beside the new one within the grace, and only the new one after (controlled clock)', async () => {
    // Prepare: both keys' answers cached by the authorizer, as on AWS.
    const { body: old } = await issue({ scope: 'public', name: 'girar' });
    const t0 = Date.now();
    clockAt(t0);

    // Act
    const res = await api({ method: 'POST', path: `${KEYS}/${old.id}/rotate`, key: tenant.adminKey, body: { grace_seconds: 60 } });
    const within = [await use(old.key, cached), await use(res.body.key, cached)];
    clockAt(t0 + 59_000);
    const late = [await use(old.key, cached), await use(res.body.key, cached)];
    clockAt(t0 + 61_000);
    const after = [await use(old.key, cached), await use(res.body.key, cached)];

    // Assess
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ scope: 'public', name: 'girar', key: expect.stringMatching(/^ssk_/), rotated_to: null });
    expect(res.body.previous).toMatchObject({ id: old.id, rotated_to: res.body.id, expires_at: new Date(t0 + 60_000).toISOString() });
    expect(within.map((r) => r.status)).toEqual([200, 200]);
    expect(late.map((r) => r.status)).toEqual([200, 200]);
    expect(after.map((r) => r.status)).toEqual([401, 200]);
    expect(after.map((r) => r.status)).toEqual((await Promise.all([use(old.key), use(res.body.key)])).map((r) => r.status));
  });

  it('of concurrent rotations of one key, exactly one gives a new key; a rotated, revoked or bad request is refused', async () => {
    const { body: old } = await issue({ scope: 'chatbot', name: 'corrida' });
    const rotate = (id: string, body: unknown) => api({ method: 'POST', path: `${KEYS}/${id}/rotate`, key: tenant.adminKey, body });

    const answers = await Promise.all([1, 2, 3, 4].map(() => rotate(old.id, { grace_seconds: 3600 })));
    const { body: revoked } = await issue({ scope: 'public', name: 'revogada' });
    await api({ method: 'DELETE', path: `${KEYS}/${revoked.id}`, key: tenant.adminKey });
    const ofRevoked = await rotate(revoked.id, { grace_seconds: 0 });
    const bad = await rotate(old.id, { grace_seconds: 7 * 86_400 + 1, surprise: true });

    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    const winner = answers.find((a) => a.status === 201)!;
    expect(winner.body.key).toMatch(/^sck_/);
    const successors = (await list()).filter((k) => k.name === 'corrida');
    expect(successors.map((k) => k.id).sort()).toEqual([old.id, winner.body.id].sort());
    expect(ofRevoked.status).toBe(409);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['grace_seconds', 'surprise']);
  });
});

describe('a rotation whose new key would stop first', () => {
  it('is refused with 400 naming expires_at, and the old key is left as it was', async () => {
    const { body: old } = await issue({ scope: 'public', name: 'curta' });
    const soon = new Date(Date.now() + 600_000).toISOString();
    const res = await api({
      method: 'POST',
      path: `${KEYS}/${old.id}/rotate`,
      key: tenant.adminKey,
      body: { grace_seconds: 3600, expires_at: soon },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['expires_at']);
    expect((await list()).find((k) => k.id === old.id)).toMatchObject({ expires_at: null, rotated_to: null });
    expect((await list()).filter((k) => k.name === 'curta')).toHaveLength(1);
  });
});

describe('the audit log of keys', () => {
  it('lists each issue, revocation and rotation with the admin key that made it, and never a key value', async () => {
    const own = await newTenant();
    const call = (method: string, path: string, body?: unknown) => api({ method, path, key: own.adminKey, body });
    const { body: adminKey } = await call('GET', KEYS);
    const me = (adminKey.data as { id: string; scope: string }[]).find((k) => k.scope === 'admin')!.id;

    const { body: issued } = await call('POST', KEYS, { scope: 'public', name: 'auditada' });
    const { body: rotated } = await call('POST', `${KEYS}/${issued.id}/rotate`, { grace_seconds: 10 });
    await call('DELETE', `${KEYS}/${rotated.id}`);
    const audit = await api({ path: '/public/admin/audit', key: own.adminKey });

    expect(audit.status).toBe(200);
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(['key.revoke', 'key.rotate', 'key.issue']);
    for (const entry of audit.body.data) expect(entry.actor).toEqual({ keyId: me });
    expect(audit.body.data[2].changes).toEqual([
      { path: `keys[id=${issued.id}]`, old: null, new: { name: 'auditada', scope: 'public', expires_at: null } },
    ]);
    expect(audit.body.data[1].changes.map((c: { path: string }) => c.path)).toEqual([
      `keys[id=${issued.id}].expires_at`,
      `keys[id=${issued.id}].rotated_to`,
      `keys[id=${rotated.id}]`,
    ]);
    expect(audit.text).not.toContain(issued.key);
    expect(audit.text).not.toContain(rotated.key);
  });
});
