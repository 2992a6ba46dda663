import { randomInt } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { keys } from '../keys.js';
import { db, type Item } from './dynamodb.js';

/**
 * The copies of the version each request reads one of. At the simulated peak of a 10-million-a-day tenant one item
 * took 26.4% of a partition's reads (792 a second); ten copies take 2.6% each. A change writes all ten in one
 * transaction (10 items, 20 write units: changes are rare).
 */
export const CONFIG_VERSION_COPIES = 10;

/** The version an item holds: 0 for none. */
export const versionOf = (item: Item | undefined): number => v.parse(v.optional(v.number(), 0), item?.version);

/**
 * The configuration's version: one strongly consistent GetItem of a small item (1 read unit), a copy chosen at random.
 * 0 before any change. A copy not written yet (a tenant whose configuration has not changed since the copies came)
 * reads 0 too: the cached settings were read at the version item's own number, so they do not match and are read
 * again in full, never stale; the tenant's next change writes every copy. Apart from the tenant repository so that
 * the HTTP wrapper, which reads it on every request whose authorizer answer was cached, bundles only this.
 */
export async function readConfigVersion(tenantId: number): Promise<number> {
  const { client, tableName } = db();
  const copy = randomInt(CONFIG_VERSION_COPIES);
  const { Item } = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: keys.configVersionCopy(tenantId, copy),
      ConsistentRead: true,
      ProjectionExpression: 'version',
    }),
  );
  return versionOf(Item);
}
