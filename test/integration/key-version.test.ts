import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { meter, type Call } from '../../bench/metering.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { oneVersionPerRequest, readConfigVersion } from '../../shared/adapters/config-version.js';
import { apiKeys } from '../../shared/adapters/wiring/access.js';
import { tenantAccess } from '../../shared/adapters/wiring/access.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import type { AuthContext } from '../../shared/access/auth-context.js';
import { inProcess } from '../support/api.js';
import { whileSlow } from '../support/faults.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * An authorizer answer API Gateway cached is taken by the HTTP wrapper with one read of a copy of the tenant's
 * configuration version; the key is read again only when the version moved (every change of a key raises it), and a
 * key past its expiry or its rotation's grace is refused on the clock alone. Against DynamoDB Local, with the real
 * authorizer and handlers (the in-process gateway caches answers per key for 300 s, as API Gateway does).
 */
const api = inProcess('public');
const actor = { keyId: 'key-version-test' };
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await newTenant();
});

afterEach(() => {
  vi.useRealTimers();
});

/** A controlled clock: Date alone is faked, so that timers and the emulators' sockets run as usual. */
function clockAt(at: number): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(at));
}

/** A call a public key may make: 200 while the key works, 401 once it does not. */
const use = (key: string, client: ReturnType<typeof inProcess>) => client({ path: '/public/store/1', key });
const keyReads = (calls: Call[]) => calls.filter((call) => call.command === 'GetItem' && call.pk?.startsWith('APIKEY#'));
const versionReads = (calls: Call[]) => calls.filter((call) => call.command === 'GetItem' && /#CONFIG(#VERSION#\d+)?$/.test(call.pk ?? ''));

/** What the table's calls of `work` were, by the meter on the real client. */
async function metered<T>(work: () => Promise<T>): Promise<{ result: T; calls: Call[] }> {
  const meterOf = meter(db().client);
  try {
    const result = await meterOf.run(work);
    return { result, calls: [...meterOf.calls] };
  } finally {
    meterOf.stop();
  }
}

type Verified = Extract<AuthContext, { authenticated: true }>;

describe('a cached authorizer answer', () => {
  it('is taken with one read of a version copy and no read of the key while the version holds', async () => {
    // Prepare: the key's answer cached, as API Gateway keeps it.
    const cached = inProcess('public', 300);
    const { key } = await apiKeys.issueKey(tenant.tenantId, { body: { scope: 'public', name: 'caixa' }, actor });
    expect((await use(key, cached)).status).toBe(200);

    // Act
    const { result, calls } = await metered(() => use(key, cached));

    // Assess
    expect(result.status).toBe(200);
    expect(keyReads(calls)).toEqual([]);
    expect(versionReads(calls)).toHaveLength(1);
    expect(versionReads(calls)[0]!.read).toBe(1);
  });

  it('reads the key again once the version moved, and a process reads it once per version', async () => {
    // Prepare: the key's answer cached, then another key issued (which raises the version).
    const cached = inProcess('public', 300);
    const { key } = await apiKeys.issueKey(tenant.tenantId, { body: { scope: 'public', name: 'loja' }, actor });
    expect((await use(key, cached)).status).toBe(200);
    await apiKeys.issueKey(tenant.tenantId, { body: { scope: 'public', name: 'outra' }, actor });

    // Act
    const first = await metered(() => use(key, cached));
    const second = await metered(() => use(key, cached));

    // Assess
    expect([first.result.status, second.result.status]).toEqual([200, 200]);
    expect(keyReads(first.calls)).toHaveLength(1);
    expect(keyReads(second.calls)).toEqual([]);
    expect(versionReads(second.calls)).toHaveLength(1);
  });

  it('is refused on the very next request once the key is revoked, though the process confirmed it at the version before', async () => {
    const cached = inProcess('public', 300);
    const issued = await apiKeys.issueKey(tenant.tenantId, { body: { scope: 'public', name: 'revogar' }, actor });
    expect((await use(issued.key, cached)).status).toBe(200);
    await apiKeys.issueKey(tenant.tenantId, { body: { scope: 'public', name: 'mais uma' }, actor });
    expect((await use(issued.key, cached)).status).toBe(200);

    await apiKeys.revokeKey(tenant.tenantId, { keyId: issued.id, actor });

    expect((await use(issued.key, cached)).status).toBe(401);
    expect((await use(issued.key, api)).status).toBe(401);
  });

  it('is refused without a read once the key has expired (controlled clock)', async () => {
    // Prepare: a key expiring a minute from now, its answer cached.
    const cached = inProcess('public', 300);
    const t0 = Date.now();
    const { key } = await apiKeys.issueKey(tenant.tenantId, {
      body: { scope: 'public', name: 'expira', expires_at: new Date(t0 + 60_000).toISOString() },
      actor,
    });
    clockAt(t0 + 1_000);
    expect((await use(key, cached)).status).toBe(200);

    // Act
    clockAt(t0 + 59_000);
    const before = await use(key, cached);
    clockAt(t0 + 60_000);
    const after = await metered(() => use(key, cached));

    // Assess
    expect(before.status).toBe(200);
    expect(after.result.status).toBe(401);
    expect(after.calls).toEqual([]);
  });

  it("is refused without a read once a rotated key's grace has ended (controlled clock)", async () => {
    // Prepare: a key rotated with a minute's grace; the old key's answer cached after the rotation, as API Gateway
    // would after its cache expired.
    const old = await apiKeys.issueKey(tenant.tenantId, { body: { scope: 'public', name: 'girar' }, actor });
    const t0 = Date.now();
    clockAt(t0);
    const successor = await apiKeys.rotateKey(tenant.tenantId, { keyId: old.id, body: { grace_seconds: 60 }, actor });
    const cached = inProcess('public', 300);
    expect((await use(old.key, cached)).status).toBe(200);
    expect((await use(successor.key, cached)).status).toBe(200);

    // Act
    clockAt(t0 + 59_000);
    const within = await use(old.key, cached);
    clockAt(t0 + 60_000);
    const after = await metered(() => use(old.key, cached));
    const next = await use(successor.key, cached);

    // Assess
    expect(within.status).toBe(200);
    expect(after.result.status).toBe(401);
    expect(after.calls).toEqual([]);
    expect(next.status).toBe(200);
  });
});

describe('one request', () => {
  it('reads the configuration version once, however often its key check and settings ask; each request reads its own', async () => {
    // Act: within one request the version is asked three times; outside any request, twice; two requests at once.
    const within = await metered(() =>
      oneVersionPerRequest(async () => [
        await readConfigVersion(tenant.tenantId),
        await readConfigVersion(tenant.tenantId),
        await readConfigVersion(tenant.tenantId),
      ]),
    );
    const outside = await metered(async () => [await readConfigVersion(tenant.tenantId), await readConfigVersion(tenant.tenantId)]);
    const version = within.result[0]!;
    await apiKeys.issueKey(tenant.tenantId, { body: { scope: 'public', name: 'entre-pedidos' }, actor });
    const next = await metered(() => oneVersionPerRequest(() => readConfigVersion(tenant.tenantId)));
    const both = await metered(() =>
      Promise.all(
        [1, 2].map(() =>
          oneVersionPerRequest(async () => [await readConfigVersion(tenant.tenantId), await readConfigVersion(tenant.tenantId)]),
        ),
      ),
    );

    // Assess: one read a request, and the next request sees a change made between them.
    expect(versionReads(within.calls)).toHaveLength(1);
    expect(within.result).toEqual([version, version, version]);
    expect(versionReads(outside.calls)).toHaveLength(2);
    expect(next.result).toBe(version + 1);
    expect(versionReads(both.calls)).toHaveLength(2);
  });
});

describe('the configuration version', () => {
  it('is raised by every change of a key: issued, revoked (again too), rotated, and by the operator', async () => {
    const versions = [await readConfigVersion(tenant.tenantId)];
    const raised = async (change: () => Promise<unknown>) => {
      await change();
      versions.push(await readConfigVersion(tenant.tenantId));
    };

    const issued = await apiKeys.issueKey(tenant.tenantId, { body: { scope: 'public', name: 'v' }, actor });
    versions.push(await readConfigVersion(tenant.tenantId));
    await raised(() => apiKeys.rotateKey(tenant.tenantId, { keyId: issued.id, body: { grace_seconds: 0 }, actor }));
    await raised(() => apiKeys.revokeKey(tenant.tenantId, { keyId: issued.id, actor }));
    await raised(() => apiKeys.revokeKey(tenant.tenantId, { keyId: issued.id, actor }));
    const operators = await tenantService.issueApiKey(tenant.tenantId, { scope: 'public' });
    versions.push(await readConfigVersion(tenant.tenantId));
    await raised(() => apiKeys.revokeKey(tenant.tenantId, { keyId: operators.keyId, actor: { operator: true } }));

    expect(versions.slice(1).map((version, i) => version - versions[i]!)).toEqual([1, 1, 1, 1, 1, 1]);
  });
});

describe('the authorizer racing a revocation', () => {
  /**
   * Sixteen authorizers check a key over and over while it is revoked, and go on a little after; their reads of a
   * version copy (copies 1-9: the revocation's raise reads copy 0) wait 0-40 ms (a slow network), so that a check may
   * read the key before the revocation writes it and the version after the revocation raised it. Each answer handed
   * out is then taken as API Gateway's cached answer.
   */
  /** Waits for a condition the checks make true, looking every 10 ms; at least 150 ms, at most 20 s. */
  async function until(condition: () => boolean) {
    const started = Date.now();
    while (Date.now() - started < 150 || (!condition() && Date.now() - started < 20_000))
      await new Promise((resolve) => setTimeout(resolve, 10));
  }

  async function race() {
    const { key, id } = await apiKeys.issueKey(tenant.tenantId, { body: { scope: 'public', name: 'corrida' }, actor });
    const handedOut: { context: AuthContext; startedAfterRevoke: boolean; overlapped: boolean }[] = [];
    let revokeStarted = false;
    let revoked = false;
    let stop = false;
    const isVersion = (command: string, key: Record<string, unknown> | undefined) =>
      /^Get(Item)?Command$/.test(command) && /#CONFIG#VERSION#\d+$/.test(String(key?.pk));
    await whileSlow(
      isVersion,
      () => Math.random() * 40,
      async () => {
        const checks = Array.from({ length: 16 }, async () => {
          while (!stop) {
            const startedAfterRevoke = revoked;
            const context = await tenantAccess.authorizeKey(key, 'public', { now: new Date() });
            // In flight at some point while the revocation ran.
            handedOut.push({ context, startedAfterRevoke, overlapped: !startedAfterRevoke && revokeStarted });
          }
        });
        // Each phase lasts until enough answers are out, not a set time: a loaded machine answers fewer a moment.
        await until(() => handedOut.length > 10);
        revokeStarted = true;
        await apiKeys.revokeKey(tenant.tenantId, { keyId: id, actor });
        revoked = true;
        await until(() => handedOut.filter((one) => one.startedAfterRevoke).length > 10);
        stop = true;
        await Promise.all(checks);
      },
    );
    const accepted = handedOut.filter(({ context }) => context.authenticated);
    const afterwards = await Promise.all(
      accepted.map(({ context }) => tenantAccess.confirmCachedKey(key, context as Verified, new Date())),
    );
    return { handedOut, accepted, afterwards };
  }

  it('hands out no answer that a request after the revocation has answered takes', async () => {
    // Act: three revocations, each raced.
    const rounds = [await race(), await race(), await race()];

    // Assess: the race was run (answers given while the revocation ran), and nothing after it let the key in.
    for (const { handedOut, accepted, afterwards } of rounds) {
      expect(accepted.length).toBeGreaterThan(10);
      expect(handedOut.filter((one) => one.overlapped && one.context.authenticated).length).toBeGreaterThan(0);
      expect(handedOut.filter((one) => one.startedAfterRevoke).length).toBeGreaterThan(0);
      expect(handedOut.filter((one) => one.startedAfterRevoke && one.context.authenticated)).toEqual([]);
      expect(afterwards.filter((context) => context.authenticated)).toEqual([]);
    }
  });
});
