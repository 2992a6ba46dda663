import { AsyncLocalStorage } from 'node:async_hooks';
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
  const seen = requestVersions.getStore();
  const known = seen?.get(tenantId);
  if (known !== undefined) return known;
  const version = await readVersionCopy(tenantId);
  seen?.set(tenantId, version);
  return version;
}

/**
 * The versions one request has read. The HTTP wrapper's check of a cached key and the settings loader both ask for the
 * version; within one request they take the one read (a change still takes effect on the next request), so a request
 * that loads settings reads the version once, not twice.
 */
const requestVersions = new AsyncLocalStorage<Map<number, number>>();

/** Runs one request with its own memory of the versions it read (shared/http/handler.ts, around each invocation). */
export const oneVersionPerRequest = <T>(run: () => Promise<T>): Promise<T> => requestVersions.run(new Map(), run);

async function readVersionCopy(tenantId: number): Promise<number> {
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
