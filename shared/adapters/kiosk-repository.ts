import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { KioskRecord, KioskStore } from '../in-store/kiosk-ports.js';
import { KIOSK_DAILY_CAP } from '../in-store/kiosk-schema.js';
import { keys } from '../keys.js';
import { TABLE } from '../table.js';
import { db, isConditionFailure, queryAll } from './dynamodb.js';

const ENTITY = 'KIOSK';

const KioskItem = v.object({
  id: v.string(),
  name: v.string(),
  store: v.number(),
  journey: v.string(),
  journeyId: v.number(),
  employee: v.nullable(v.number()),
  // Absent on kiosks registered before the cap: the default's.
  daily_cap: v.optional(v.number(), KIOSK_DAILY_CAP.default),
  created_at: v.string(),
  revoked_at: v.optional(v.string()),
  tokenHash: v.string(),
});
// Revocation is the attribute's presence (a condition can test it), so a kiosk in use is stored without it.
const recordOf = (item: Record<string, unknown>): KioskRecord => {
  const { revoked_at, ...kiosk } = v.parse(KioskItem, item);
  return { ...kiosk, revoked_at: revoked_at ?? null };
};

/** The tenant's kiosks: one partition of the tenant's, an item each (a tenant has tens of tablets, not thousands). */
export const kioskStore: KioskStore = {
  async insert(tenantId, { revoked_at: _never, ...kiosk }) {
    const { client, tableName } = db();
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.kiosk(tenantId, kiosk.id), [TABLE.entityAttribute]: ENTITY, ...kiosk },
        // 64 random bits: an id already stored would be a broken random source, not a case to handle.
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  },

  async find(tenantId, id) {
    const { client, tableName } = db();
    const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.kiosk(tenantId, id) }));
    return Item ? recordOf(Item) : undefined;
  },

  async list(tenantId) {
    const items = await queryAll(db(), { partition: keys.kiosks(tenantId) });
    return items.map(recordOf).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  },

  async revoke(tenantId, id, at) {
    const { client, tableName } = db();
    try {
      const { Attributes } = await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.kiosk(tenantId, id),
          UpdateExpression: 'SET revoked_at = :at',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revoked_at)',
          ExpressionAttributeValues: { ':at': at },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return recordOf(Attributes!);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return kioskStore.find(tenantId, id);
    }
  },
};
