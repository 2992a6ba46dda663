import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { CONFIG_VERSION_COPIES, raiseConfigVersion, readConfigVersion } from '../../shared/adapters/tenant-repository.js';
import { readVersionedSettings } from '../../shared/adapters/settings-repository.js';
import { keys } from '../../shared/keys.js';
import { TABLE } from '../../shared/table.js';
import { versionedSettings } from '../../shared/tenants/settings.js';

// Tenant ids of their own: the version items start from nothing.
const aTenant = () => 950_000_000 + Math.floor(Math.random() * 1_000_000);

/** Every copy's version, as stored (undefined: not written). */
async function copies(tenantId: number): Promise<(number | undefined)[]> {
  return Promise.all(
    Array.from({ length: CONFIG_VERSION_COPIES }, async (_, copy) => {
      const { Item } = await db().client.send(
        new GetCommand({ TableName: db().tableName, Key: keys.configVersionCopy(tenantId, copy), ConsistentRead: true }),
      );
      return Item?.version as number | undefined;
    }),
  );
}

describe('the configuration version in copies', () => {
  it('keeps every copy equal under concurrent raises, each raise answering its own number', async () => {
    const tenantId = aTenant();
    expect(await raiseConfigVersion(tenantId)).toBe(1);

    const raised = await Promise.all(Array.from({ length: 8 }, () => raiseConfigVersion(tenantId)));
    expect([...raised].sort((a, b) => a! - b!)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await copies(tenantId)).toEqual(Array.from({ length: CONFIG_VERSION_COPIES }, () => 9));
    // Whichever copy a request reads, it reads the newest.
    const read = await Promise.all(Array.from({ length: 40 }, () => readConfigVersion(tenantId)));
    expect(new Set(read)).toEqual(new Set([9]));
  });

  it('lets one of several raises expecting the same version win, and leaves the copies at its number', async () => {
    const tenantId = aTenant();
    await raiseConfigVersion(tenantId);
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => raiseConfigVersion(tenantId, { expected: 1 })));
    expect(outcomes.filter((outcome) => outcome !== undefined)).toEqual([2]);
    expect(await copies(tenantId)).toEqual(Array.from({ length: CONFIG_VERSION_COPIES }, () => 2));
    expect(await raiseConfigVersion(tenantId, { expected: 1 })).toBeUndefined();
  });

  it("releases a claim from the claim's version without reading it, or from the newest when another raise came between", async () => {
    const tenantId = aTenant();
    // A claim holds the version without raising it (its release does: one replacement, one raise).
    const claimed = await raiseConfigVersion(tenantId, { expected: 0, writing: 'claim' });
    // While claimed, a second claim on the claimed version fails; a key's change (no claim) still raises it.
    const second = await raiseConfigVersion(tenantId, { expected: 0, writing: 'claim' });
    const keyChange = await raiseConfigVersion(tenantId);
    const released = await raiseConfigVersion(tenantId, { writing: 'release', from: claimed });

    expect([claimed, second, keyChange, released]).toEqual([0, undefined, 1, 2]);
    expect(await copies(tenantId)).toEqual(Array.from({ length: CONFIG_VERSION_COPIES }, () => 2));
    // Released: the next claim holds, and its release raises the version by one.
    expect(await raiseConfigVersion(tenantId, { expected: 2, writing: 'claim' })).toBe(2);
    expect(await raiseConfigVersion(tenantId, { writing: 'release', from: 2 })).toBe(3);
  });

  it('moves a tenant that has only the version item: settings stay exact before its next change, which writes every copy', async () => {
    const tenantId = aTenant();
    // A tenant from before the copies: the version item alone, at 7.
    await db().client.send(
      new PutCommand({
        TableName: db().tableName,
        Item: { ...keys.configVersionCopy(tenantId, 0), [TABLE.entityAttribute]: 'CONFIG_VERSION', version: 7 },
      }),
    );
    let fullReads = 0;
    const settings = versionedSettings({
      version: readConfigVersion,
      read: (id) => (fullReads++, readVersionedSettings(id)),
    });
    // Before the change: a copy that is missing reads 0, never a match for the kept 7, so the settings are read again.
    for (let i = 0; i < 20; i++) await settings(tenantId);
    expect(fullReads).toBeGreaterThan(1);

    expect(await raiseConfigVersion(tenantId, { expected: 7 })).toBe(8);
    expect(await copies(tenantId)).toEqual(Array.from({ length: CONFIG_VERSION_COPIES }, () => 8));
    await settings(tenantId);
    const after = fullReads;
    for (let i = 0; i < 20; i++) await settings(tenantId);
    expect(fullReads).toBe(after);
  });
});
