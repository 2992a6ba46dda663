import { describe, expect, it } from 'vitest';
import { parseAuthContext } from '../../shared/access/auth-context.js';
import { keyMemory, MAX_REMEMBERED, OUTAGE_GRACE_SECONDS } from '../../shared/access/key-memory.js';

/** What the authorizer hands on, and what it remembers for a table outage. */

describe('the authorizer context', () => {
  it('is read whether API Gateway hands its values over as they were or as strings', () => {
    const tenant = { authenticated: true, tenantId: 7, scope: 'public' };
    expect(parseAuthContext(tenant)).toEqual(tenant);
    expect(parseAuthContext({ authenticated: 'true', tenantId: '7', scope: 'public' })).toEqual(tenant);
    expect(parseAuthContext({ authenticated: '1', tenantId: '7', scope: 'public' })).toEqual(tenant);
    expect(parseAuthContext({ authenticated: 'false', recheck: 'public' })).toEqual({ authenticated: false, recheck: 'public' });
  });

  it('is unauthenticated when anything in it is wrong', () => {
    for (const bad of [
      undefined,
      {},
      { authenticated: 'yes', tenantId: 7, scope: 'p' },
      { authenticated: 'true', tenantId: '0', scope: 'p' },
      { authenticated: true, tenantId: '7a', scope: 'p' },
    ])
      expect(parseAuthContext(bad)).toEqual({ authenticated: false });
  });
});

describe('keys remembered for a table outage', () => {
  const verified = { authenticated: true as const, tenantId: 7, scope: 'public' };

  it('answer for a verified key during the grace period after its last check, and not after', () => {
    let now = 0;
    const memory = keyMemory(() => now);
    memory.remember('k', verified);
    now = OUTAGE_GRACE_SECONDS * 1000;
    expect(memory.recall('k')).toEqual(verified);
    now += 1;
    expect(memory.recall('k')).toBeUndefined();
    expect(memory.recall('never-seen')).toBeUndefined();
  });

  it('forget a key the moment it is seen unknown or revoked', () => {
    const memory = keyMemory(() => 0);
    memory.remember('k', verified);
    memory.remember('k', { authenticated: false });
    expect(memory.recall('k')).toBeUndefined();
  });

  it('hold at most a bounded number of keys, dropping the oldest', () => {
    const memory = keyMemory(() => 0);
    for (let i = 0; i <= MAX_REMEMBERED; i++) memory.remember(`k${i}`, verified);
    expect(memory.recall('k0')).toBeUndefined();
    expect(memory.recall(`k${MAX_REMEMBERED}`)).toEqual(verified);
  });
});
