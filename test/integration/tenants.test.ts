import { describe, expect, it } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import {
  auditEntries,
  createTenant,
  createUser,
  issueApiKey,
  applyTenantConfig,
  resolveUser,
  authorizeKey,
} from '../../shared/adapters/wiring/tenants.js';
import { getTenant } from '../../shared/adapters/tenant-repository.js';
import { getStore } from '../../shared/adapters/wiring/stores.js';
import { readSettings } from '../../shared/adapters/tenant-repository.js';
import { parseTenantFile } from '../../shared/tenants/tenant-file.js';
import { inProcess } from '../support/api.js';

const api = inProcess();

describe('tenants', () => {
  it('are created with default store 1 and employee 1, and distinct ids', async () => {
    const [a, b] = await Promise.all([createTenant('alpha'), createTenant('beta')]);
    expect(a.id).not.toBe(b.id);
    expect(await getStore(a.id, 1)).toMatchObject({ id: 1, status: 'active' });
    const { key } = await issueApiKey(a.id, 'public');
    const created = await api({ method: 'POST', path: '/public/store', key, body: { trade_name: 'Second' } });
    expect(created.body.id).toBe(2);
  });

  it('refuses a key for a tenant that does not exist', async () => {
    await expect(issueApiKey(987654, 'public')).rejects.toThrow(/does not exist/);
  });

  it('apply creates a tenant from its file, then updates it in place', async () => {
    const id = 500_000 + Math.floor(Math.random() * 100_000);
    const file = (users: unknown[], name = 'filed') =>
      parseTenantFile(
        JSON.stringify({
          tenants: [
            {
              id,
              name,
              classes: [{ id: 1, label: 'Atendimento', type: 'csat' }],
              journeys: [{ id: 1, slug: 'loja', indicator: 'nps', classes: [1], channels: ['whatsapp'] }],
              groups: [{ id: 1, name: 'Gerentes' }],
              users,
              keys: [{ scope: 'public', value: '${TEST_APPLY_KEY:-apply-test-key-' + id + '}' }],
            },
          ],
        }),
      ).tenants[0]!;

    const first = await applyTenantConfig(file([{ name: 'ops', token: `ops-token-${id}-000000`, scope: 'all' }]));
    expect(first[0]).toMatch(/created/);
    expect(await authorizeKey(`apply-test-key-${id}`, 'public')).toEqual({
      authenticated: true,
      tenantId: id,
      scope: 'public',
      keyId: expect.stringMatching(/^[0-9a-f]{12}$/),
    });
    const settings = await readSettings(id);
    expect(settings.journeys.map((journey) => journey.slug)).toEqual(['loja']);
    expect(settings.classes.map((item) => item.id)).toEqual([1]);
    expect(settings.groups).toEqual([{ id: 1, name: 'Gerentes' }]);
    expect(settings.delivery).toEqual({});

    const second = await applyTenantConfig(
      file([{ name: 'ops', token: `ops-token-${id}-000000`, scope: { stores: [1], groups: [] } }], 'renamed'),
    );
    expect(second[0]).toMatch(/updated/);
    expect(second).toContain('  public key: already present');
    expect((await getTenant(id))?.name).toBe('renamed');
    expect((await resolveUser(id, `ops-token-${id}-000000`)).scope).toEqual({ stores: [1], groups: [] });
    // The operator's command writes the audit log too: the rename, newest first, after the creation.
    const audit = await auditEntries(id, { limit: 10 });
    expect(audit.data.map((entry) => [entry.actor, entry.action])).toEqual([
      [{ operator: true }, 'config.apply'],
      [{ operator: true }, 'config.apply'],
    ]);
    expect(audit.data[0]!.changes).toEqual([{ path: 'name', old: 'filed', new: 'renamed' }]);
  });

  it('decide what to write about a user from consistent reads, never from an index that may lag behind a write', async () => {
    const { id } = await createTenant(`users-${Date.now()}`);
    await createUser(id, 'ops', 'all', `ops-first-token-${id}`);
    // Were the name read through the index (eventually consistent on AWS), this would fail: no Query is answered.
    const stack = db().client.middlewareStack;
    stack.add(
      (next, context) => async (args) => {
        if (String(context.commandName).startsWith('Query')) throw new Error('no index reads here');
        return next(args);
      },
      { step: 'initialize', name: 'noQueries' },
    );
    try {
      await createUser(id, 'ops', { stores: [1], groups: [] }, `ops-second-token-${id}`);
    } finally {
      stack.remove('noQueries');
    }
    await expect(resolveUser(id, `ops-first-token-${id}`)).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect((await resolveUser(id, `ops-second-token-${id}`)).scope).toEqual({ stores: [1], groups: [] });
  });
});
