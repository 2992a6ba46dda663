import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../keys.js';
import type { OpenRequestSlots } from '../privacy/ports.js';
import { TABLE } from '../table.js';
import { db, isConditionFailure, queryAll } from './dynamodb.js';

/** The slots of a tenant's open privacy requests: at most MAX_OPEN_PRIVACY_REQUESTS small items in one partition. */
export const privacySlots: OpenRequestSlots = {
  async held(tenantId) {
    const items = await queryAll(db(), { partition: keys.privacySlots(tenantId) });
    return items.map((item) => ({ slot: Number(item.slot), holder: String(item.holder), claimedAt: String(item.claimed_at) }));
  },

  async claim(tenantId, { slot, holder, at, previous }) {
    const { client, tableName } = db();
    try {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...keys.privacySlot(tenantId, slot), [TABLE.entityAttribute]: 'PRIVACY_SLOT', slot, holder, claimed_at: at },
          ...(previous === undefined
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : { ConditionExpression: 'holder = :previous', ExpressionAttributeValues: { ':previous': previous } }),
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },
};
