import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DIGEST_CLAIM_SECONDS, type DigestClaims } from '../digest/sending.js';
import { keys } from '../keys.js';
import { TABLE } from '../table.js';
import { db, isConditionFailure } from './dynamodb.js';

/** A claim is kept this long after its period, then the table's TTL removes it (a late retry is long over). */
const CLAIM_TTL_DAYS = 40;

/**
 * One digest per user and period: an item per user and period (`DIGEST_CLAIM`), put conditionally before the e-mail.
 * A claim older than DIGEST_CLAIM_SECONDS is a crash's and may be taken again; once sent, never.
 */
export const digestClaims: DigestClaims = {
  async claim(tenantId, user, period, from, now) {
    const { client, tableName } = db();
    try {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.digestClaim(tenantId, user, period, from),
            [TABLE.entityAttribute]: 'DIGEST_CLAIM',
            state: 'claimed',
            claimedAt: now.toISOString(),
            [TABLE.ttlAttribute]: Math.floor(Date.parse(`${from}T00:00:00Z`) / 1000) + CLAIM_TTL_DAYS * 86_400,
          },
          ConditionExpression: 'attribute_not_exists(#pk) OR (#state = :claimed AND claimedAt < :stale)',
          ExpressionAttributeNames: { '#pk': TABLE.partitionKey, '#state': 'state' },
          ExpressionAttributeValues: {
            ':claimed': 'claimed',
            ':stale': new Date(now.getTime() - DIGEST_CLAIM_SECONDS * 1000).toISOString(),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  async sent(tenantId, user, period, from, now) {
    const { client, tableName } = db();
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.digestClaim(tenantId, user, period, from),
        UpdateExpression: 'SET #state = :sent, sentAt = :at',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':sent': 'sent', ':at': now.toISOString() },
      }),
    );
  },

  async release(tenantId, user, period, from, now) {
    const { client, tableName } = db();
    try {
      await client.send(
        new DeleteCommand({
          TableName: tableName,
          Key: keys.digestClaim(tenantId, user, period, from),
          ConditionExpression: '#state = :claimed AND claimedAt = :at',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':claimed': 'claimed', ':at': now.toISOString() },
        }),
      );
    } catch (error) {
      // Someone else's claim since, or sent: nothing of ours to give back.
      if (!isConditionFailure(error)) throw error;
    }
  },
};
