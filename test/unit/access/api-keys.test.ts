import { describe, expect, it } from 'vitest';
import { apiKeys, keyOfValue } from '../../../shared/access/api-keys.js';
import { hashSecret } from '../../../shared/access/credentials.js';
import { memoryAccess, memoryAudit } from '../../support/memory.js';
import { refusal } from '../../support/problems.js';

/** A tenant's API keys: issued, listed, revoked, rotated; over in-memory ports. */

const TENANT = 7;
const NOW = new Date('2026-11-23T12:00:00.000Z');
const actor = { keyId: 'aaaaaaaaaaaa' };
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

function keysWorld() {
  const access = memoryAccess();
  const audit = memoryAudit();
  return { access, audit, service: apiKeys(access, audit) };
}

describe('API keys', () => {
  it('issues a key whose value is answered once and stored only as its hash, audited without it', async () => {
    const { access, audit, service } = keysWorld();

    const issued = await service.issueKey(TENANT, { body: { scope: 'public', name: 'ERP' }, actor, now: NOW });

    expect(issued.key).toMatch(/^ssk_/);
    expect(await keyOfValue(access, issued.key)).toEqual({ tenantId: TENANT, keyId: issued.id });
    const { key, ...view } = issued;
    expect(await service.listKeys(TENANT)).toEqual([view]);
    const stored = JSON.stringify([...access.keys.values(), ...(await audit.list(TENANT, { limit: 10 })).data]);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(hashSecret(key));
    expect((await audit.list(TENANT, { limit: 10 })).data.map((e) => e.action)).toEqual(['key.issue']);
    expect(access.versions.get(TENANT)).toBe(2);
  });

  it('refuses an expiry that has passed, naming it', async () => {
    const { access, service } = keysWorld();

    expect(
      await refusal(
        service.issueKey(TENANT, { body: { scope: 'admin', name: 'x', expires_at: '2026-11-01T00:00:00.000Z' }, actor, now: NOW }),
      ),
    ).toEqual({
      kind: 'validation',
      message: 'The expiry has passed already.',
      errors: [{ path: 'expires_at', message: 'must be in the future' }],
    });
    expect(access.keys.size).toBe(0);
  });

  it('revokes a key once: a second revocation keeps the first time, is not audited again, and still raises the version', async () => {
    const { access, audit, service } = keysWorld();
    const issued = await service.issueKey(TENANT, { body: { scope: 'public', name: 'ERP' }, actor, now: NOW });

    expect((await service.revokeKey(TENANT, { keyId: issued.id, actor, now: later(60) })).revoked_at).toBe(later(60).toISOString());
    expect((await service.revokeKey(TENANT, { keyId: issued.id, actor, now: later(120) })).revoked_at).toBe(later(60).toISOString());

    expect((await service.listKeys(TENANT))[0]!.revoked_at).toBe(later(60).toISOString());
    expect((await audit.list(TENANT, { limit: 10 })).data.map((e) => e.action)).toEqual(['key.revoke', 'key.issue']);
    expect(access.versions.get(TENANT)).toBe(4);
    expect(await refusal(service.revokeKey(TENANT, { keyId: 'bbbbbbbbbbbb', actor }))).toMatchObject({ kind: 'not-found' });
    expect(await refusal(service.revokeKey(8, { keyId: issued.id, actor }))).toMatchObject({ kind: 'not-found' });
  });

  it('rotates a key: the successor takes its scope and name, the old one works for the grace and no longer', async () => {
    const { service } = keysWorld();
    const old = await service.issueKey(TENANT, { body: { scope: 'chatbot', name: 'Bot' }, actor, now: NOW });

    const rotated = await service.rotateKey(TENANT, { keyId: old.id, body: { grace_seconds: 3600 }, actor, now: later(10) });

    expect(rotated).toMatchObject({ scope: 'chatbot', name: 'Bot', expires_at: null, rotated_to: null });
    expect(rotated.key).toMatch(/^sck_/);
    expect(rotated.previous).toMatchObject({ id: old.id, expires_at: later(3610).toISOString(), rotated_to: rotated.id });
    expect((await service.listKeys(TENANT)).map((k) => [k.id, k.expires_at, k.rotated_to])).toEqual([
      [old.id, later(3610).toISOString(), rotated.id],
      [rotated.id, null, null],
    ]);
  });

  it("keeps the grace within the old key's own expiry, and refuses a successor that would stop first", async () => {
    const { service } = keysWorld();
    const expiring = await service.issueKey(TENANT, {
      body: { scope: 'public', name: 'A', expires_at: later(600).toISOString() },
      actor,
      now: NOW,
    });

    expect(
      await refusal(
        service.rotateKey(TENANT, {
          keyId: expiring.id,
          body: { grace_seconds: 3600, expires_at: later(300).toISOString() },
          actor,
          now: NOW,
        }),
      ),
    ).toMatchObject({
      kind: 'validation',
      errors: [{ path: 'expires_at', message: `must be after the old key stops working (${later(600).toISOString()})` }],
    });
    const rotated = await service.rotateKey(TENANT, { keyId: expiring.id, body: { grace_seconds: 3600 }, actor, now: NOW });
    expect(rotated.previous.expires_at).toBe(later(600).toISOString());
  });

  it('refuses to rotate a key rotated already, revoked or expired (state-conflict), writing nothing', async () => {
    const { access, service } = keysWorld();
    const rotatedOnce = await service.issueKey(TENANT, { body: { scope: 'public', name: 'A' }, actor, now: NOW });
    await service.rotateKey(TENANT, { keyId: rotatedOnce.id, body: { grace_seconds: 0 }, actor, now: NOW });
    const revoked = await service.issueKey(TENANT, { body: { scope: 'public', name: 'B' }, actor, now: NOW });
    await service.revokeKey(TENANT, { keyId: revoked.id, actor, now: NOW });
    const expired = await service.issueKey(TENANT, {
      body: { scope: 'public', name: 'C', expires_at: later(60).toISOString() },
      actor,
      now: NOW,
    });
    const before = access.keys.size;

    for (const id of [rotatedOnce.id, revoked.id, expired.id])
      expect(await refusal(service.rotateKey(TENANT, { keyId: id, body: { grace_seconds: 60 }, actor, now: later(120) }))).toMatchObject({
        kind: 'state-conflict',
      });
    expect(access.keys.size).toBe(before);
  });
});
