import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { EXPORT_CLAIM_SECONDS, type ExportClaims } from '../analytics/schedule.js';
import { keys } from '../keys.js';
import { TABLE } from '../table.js';
import { db, isConditionFailure } from './dynamodb.js';

/** A claim is kept this long after its day, then the table's TTL removes it (a timer lives two days: DUE_TTL_DAYS). */
const CLAIM_TTL_DAYS = 7;

/**
 * One scheduled write per tenant and day: an item per day (`ANALYTICS_CLAIM`), put conditionally before the write. A
 * claim older than EXPORT_CLAIM_SECONDS is a crash's and may be taken again; once done, never (an erasure or the admin
 * command writes a day again without it).
 */
export const analyticsClaims: ExportClaims = {
  async claim(tenantId, day, now) {
    const { client, tableName } = db();
    try {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.analyticsClaim(tenantId, day),
            [TABLE.entityAttribute]: 'ANALYTICS_CLAIM',
            state: 'claimed',
            claimedAt: now.toISOString(),
            [TABLE.ttlAttribute]: Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + CLAIM_TTL_DAYS * 86_400,
          },
          ConditionExpression: 'attribute_not_exists(#pk) OR (#state = :claimed AND claimedAt < :stale)',
          ExpressionAttributeNames: { '#pk': TABLE.partitionKey, '#state': 'state' },
          ExpressionAttributeValues: {
            ':claimed': 'claimed',
            ':stale': new Date(now.getTime() - EXPORT_CLAIM_SECONDS * 1000).toISOString(),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  async done(tenantId, day, now) {
    const { client, tableName } = db();
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.analyticsClaim(tenantId, day),
        UpdateExpression: 'SET #state = :done, doneAt = :at',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':done': 'done', ':at': now.toISOString() },
      }),
    );
  },

  async release(tenantId, day, now) {
    const { client, tableName } = db();
    try {
      await client.send(
        new DeleteCommand({
          TableName: tableName,
          Key: keys.analyticsClaim(tenantId, day),
          ConditionExpression: '#state = :claimed AND claimedAt = :at',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':claimed': 'claimed', ':at': now.toISOString() },
        }),
      );
    } catch (error) {
      // Someone else's claim since, or done: nothing of ours to give back.
      if (!isConditionFailure(error)) throw error;
    }
  },
};
