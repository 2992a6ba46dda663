import { randomUUID } from 'node:crypto';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { DirtyDays } from '../analytics/ports.js';
import { keys } from '../keys.js';
import { TABLE } from '../table.js';
import { conditionHeld, db, queryAll } from './dynamodb.js';
import type { TransactItem } from './result-counters.js';

/** A mark nobody cleared (the tenant stopped exporting) goes with the table's TTL after this long. */
const MARK_TTL_DAYS = 60;
/**
 * A day's mark is one item a shard: at the scale target the late survey changes (docs/analytics.md) put up to a few
 * hundred marks a second on one day, each 2 write units (transactional), past what one item should take.
 */
export const DIRTY_SHARDS = 16;

/**
 * The days of the analytics export a late change reached (docs/analytics.md): one item per tenant and UTC day of the
 * changed record's instant, put in the same transaction as the change (a case moved, an answer corrected), so that no
 * change is written without its mark. Each put gives the mark a new token: the run that wrote the day again clears
 * the mark only if its token is still the one it read, so a change during the rewrite keeps it for the next run.
 */
export function dirtyMark(
  tenantId: number,
  { instant, recordId, now = new Date() }: { instant: string; recordId: number; now?: Date },
): TransactItem {
  return {
    Put: {
      TableName: db().tableName,
      Item: {
        ...keys.analyticsDirty(tenantId, instant.slice(0, 10), recordId % DIRTY_SHARDS),
        [TABLE.entityAttribute]: 'ANALYTICS_DIRTY',
        token: randomUUID(),
        markedAt: now.toISOString(),
        [TABLE.ttlAttribute]: Math.floor(now.getTime() / 1000) + MARK_TTL_DAYS * 86_400,
      },
    },
  };
}

export const dirtyDays: DirtyDays = {
  async list(tenantId) {
    const shards = await Promise.all(
      Array.from({ length: DIRTY_SHARDS }, async (_, shard) =>
        (await queryAll(db(), { partition: keys.analyticsDirtyDays(tenantId, shard), consistent: true })).map((item) => ({
          utcDay: String(item[TABLE.sortKey]),
          shard,
          token: String(item.token),
        })),
      ),
    );
    return shards.flat();
  },
  async clear(tenantId, mark) {
    const { client, tableName } = db();
    await conditionHeld(
      client.send(
        new DeleteCommand({
          TableName: tableName,
          Key: keys.analyticsDirty(tenantId, mark.utcDay, mark.shard),
          ConditionExpression: '#token = :token',
          ExpressionAttributeNames: { '#token': 'token' },
          ExpressionAttributeValues: { ':token': mark.token },
        }),
      ),
    );
  },
};
