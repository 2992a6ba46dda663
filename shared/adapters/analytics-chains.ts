import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { CHAIN_TTL_DAYS, ChainEnd, type ExportChains } from '../analytics/chain.js';
import { WRITE_START, type WriteAt } from '../analytics/export.js';
import { keys } from '../keys.js';
import { TABLE } from '../table.js';
import { conditionHeld, db } from './dynamodb.js';
import { entity } from './entity.js';

/**
 * The analytics chains' items (shared/analytics/chain.ts): one per chain, its job and where it stands as JSON (a day's
 * read cursor and its parts' ETags: a few KB at the scale target; the half-written file is in the bucket), its link's
 * number and lease. Every write after the first is conditional on the link's number and holder, so a link run twice
 * at once writes once, and one that outlived its lease writes nothing.
 */

const Job = v.object({ tenantId: v.number(), days: v.array(v.string()), then: ChainEnd });
const Stored = v.object({
  job: v.pipe(v.string(), v.parseJson(), Job),
  at: v.pipe(
    v.string(),
    v.parseJson(),
    v.custom<WriteAt>((at) => typeof at === 'object' && at !== null && 'day' in at),
  ),
  seq: v.number(),
  done: v.optional(v.boolean(), false),
  advancedAt: v.string(),
  leasedUntil: v.optional(v.string()),
});

const held = { ConditionExpression: 'seq = :seq AND #owner = :owner', ExpressionAttributeNames: { '#owner': 'owner' } };

export const analyticsChains: ExportChains = {
  create(tenantId, { chainId, job, now }) {
    const { client, tableName } = db();
    return conditionHeld(
      client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.analyticsChain(tenantId, chainId),
            ...entity('ANALYTICS_CHAIN'),
            job: JSON.stringify(job),
            at: JSON.stringify(WRITE_START),
            seq: 0,
            createdAt: now.toISOString(),
            advancedAt: now.toISOString(),
            [TABLE.ttlAttribute]: Math.floor(now.getTime() / 1000) + CHAIN_TTL_DAYS * 86_400,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  },
  async read(tenantId, chainId) {
    const { client, tableName } = db();
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.analyticsChain(tenantId, chainId), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    const chain = v.parse(Stored, Item);
    return { ...chain, leasedUntil: chain.leasedUntil ?? null };
  },
  lease(tenantId, { chainId, seq, owner }, { now, until }) {
    const { client, tableName } = db();
    return conditionHeld(
      client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.analyticsChain(tenantId, chainId),
          UpdateExpression: 'SET leasedUntil = :until, #owner = :owner',
          ConditionExpression: 'seq = :seq AND NOT done = :true AND (attribute_not_exists(leasedUntil) OR leasedUntil < :now)',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: {
            ':seq': seq,
            ':owner': owner,
            ':until': until.toISOString(),
            ':now': now.toISOString(),
            ':true': true,
          },
        }),
      ),
    );
  },
  async checkpoint(tenantId, { chainId, seq, owner }, at) {
    const { client, tableName } = db();
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.analyticsChain(tenantId, chainId),
        UpdateExpression: 'SET #at = :at',
        ...held,
        ExpressionAttributeNames: { ...held.ExpressionAttributeNames, '#at': 'at' },
        ExpressionAttributeValues: { ':seq': seq, ':owner': owner, ':at': JSON.stringify(at) },
      }),
    );
  },
  async advance(tenantId, { chainId, seq, owner }, { at, done, now }) {
    const { client, tableName } = db();
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.analyticsChain(tenantId, chainId),
        UpdateExpression: 'SET #at = :at, seq = :next, done = :done, advancedAt = :now REMOVE leasedUntil, #owner',
        ...held,
        ExpressionAttributeNames: { ...held.ExpressionAttributeNames, '#at': 'at' },
        ExpressionAttributeValues: {
          ':seq': seq,
          ':owner': owner,
          ':at': JSON.stringify(at),
          ':next': seq + 1,
          ':done': done,
          ':now': now.toISOString(),
        },
      }),
    );
  },
  async release(tenantId, { chainId, seq, owner }) {
    const { client, tableName } = db();
    await conditionHeld(
      client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.analyticsChain(tenantId, chainId),
          UpdateExpression: 'REMOVE leasedUntil, #owner',
          ...held,
          ExpressionAttributeValues: { ':seq': seq, ':owner': owner },
        }),
      ),
    );
  },
};
