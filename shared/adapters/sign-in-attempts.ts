import { createHash } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { keys } from '../keys.js';
import type { AttemptKey, SignInAttempts } from '../session/ports.js';
import { TABLE } from '../table.js';
import { batchGet, db, isConditionFailure } from './dynamodb.js';

const ENTITY = 'SIGNIN_FAILURES';

/** The item of a key: by the hash of the e-mail or address, never the value itself. */
export const attemptItemKey = ({ kind, id }: AttemptKey) => keys.signInFailures(kind, createHash('sha256').update(id).digest('base64url'));

const Counted = v.object({ pk: v.string(), failures: v.number(), [TABLE.ttlAttribute]: v.number() });

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/**
 * Failed sign-ins: one item per account or address, its count and the end of its window as the TTL attribute, so
 * DynamoDB removes it some time after; until then a read ignores a window that has ended. Read with one consistent
 * BatchGetItem; no scan.
 */
export const signInAttempts: SignInAttempts = {
  async failures(counted, now) {
    const items = await batchGet(db(), counted.map(attemptItemKey), { consistent: true });
    const current = new Map<string, { failures: number; endsAt: number }>();
    for (const item of items) {
      const parsed = v.safeParse(Counted, item);
      const ends = parsed.success ? parsed.output[TABLE.ttlAttribute] : 0;
      if (parsed.success && ends > seconds(now)) current.set(parsed.output.pk, { failures: parsed.output.failures, endsAt: ends * 1000 });
    }
    return counted.map((key) => current.get(attemptItemKey(key).pk) ?? { failures: 0 });
  },

  async fail(counted, now, windowSeconds) {
    const { client, tableName } = db();
    await Promise.all(
      counted.map(async (key) => {
        try {
          // Counted in the current window; a new item starts one.
          await client.send(
            new UpdateCommand({
              TableName: tableName,
              Key: attemptItemKey(key),
              UpdateExpression: 'ADD failures :one SET #ttl = if_not_exists(#ttl, :end), #entity = :entity',
              ConditionExpression: 'attribute_not_exists(#ttl) OR #ttl > :now',
              ExpressionAttributeNames: { '#ttl': TABLE.ttlAttribute, '#entity': TABLE.entityAttribute },
              ExpressionAttributeValues: { ':one': 1, ':end': seconds(now) + windowSeconds, ':now': seconds(now), ':entity': ENTITY },
            }),
          );
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
          // The window has ended and TTL has not removed the item yet: this failure starts the next window.
          await client.send(
            new PutCommand({
              TableName: tableName,
              Item: {
                ...attemptItemKey(key),
                [TABLE.entityAttribute]: ENTITY,
                failures: 1,
                [TABLE.ttlAttribute]: seconds(now) + windowSeconds,
              },
            }),
          );
        }
      }),
    );
  },

  async forget(key) {
    const { client, tableName } = db();
    await client.send(new DeleteCommand({ TableName: tableName, Key: attemptItemKey(key) }));
  },
};
