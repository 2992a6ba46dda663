import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { keys } from '../keys.js';
import type { ReanalysisPorts } from '../themes/ports.js';
import { db, queryPage } from './dynamodb.js';
import { evaluationPartitions } from './transaction-repository.js';

/** A page of a reanalysis: small, so that a stopped run repeats little. */
const PAGE = 100;

const Checkpoint = v.object({
  from: v.string(),
  to: v.string(),
  day: v.string(),
  pending: v.array(v.object({ partition: v.number(), cursor: v.nullable(v.string()) })),
  moved: v.number(),
  read: v.number(),
});

/**
 * A day's answers from the month's evaluation partitions of gsi2 (the unsharded one, then each shard), whose sort key
 * starts with the answer's time; and the reanalysis checkpoint, one item.
 */
export const reanalysisRepository: ReanalysisPorts = {
  partitions: evaluationPartitions(0, '2000-01').length,

  async answersOfDay(tenantId, { day, partition, cursor }) {
    const spec = { index: 'gsi2' as const, partition: evaluationPartitions(tenantId, day.slice(0, 7))[partition]!, sortBeginsWith: day };
    const page = await queryPage(db(), spec, { cursor: cursor ?? undefined, page: 1, limit: PAGE });
    return { transactionIds: page.items.map((item) => keys.transactionIdOf(String(item.pk))), next: page.nextCursor };
  },

  checkpoint: {
    async read(tenantId) {
      const { client, tableName } = db();
      const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.reanalysis(tenantId), ConsistentRead: true }));
      return Item ? v.parse(Checkpoint, Item) : undefined;
    },
    async write(tenantId, checkpoint) {
      const { client, tableName } = db();
      if (checkpoint) await client.send(new PutCommand({ TableName: tableName, Item: { ...keys.reanalysis(tenantId), ...checkpoint } }));
      else await client.send(new DeleteCommand({ TableName: tableName, Key: keys.reanalysis(tenantId) }));
    },
  },
};
