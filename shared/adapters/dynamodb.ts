import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  UpdateCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '../errors.js';
import { indexAttributes, TABLE, type IndexName } from '../table.js';
import { decodeCursor, decodeIdCursor, encodeCursor, encodeIdCursor } from './cursor.js';
import { ENV, requireEnv } from '../config.js';
import type { Entity } from '../keys.js';
import { keys } from '../keys.js';
import { PAGING } from '../paging.js';

export type Item = Record<string, unknown>;

/** The table a process talks to: its document client and name. One per process, built at module load. */
export interface Db {
  client: DynamoDBDocumentClient;
  tableName: string;
}

export function createDb(tableName: string, client = new DynamoDBClient({})): Db {
  return {
    client: DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }),
    tableName,
  };
}

let defaultDb: Db | undefined;
/** The table named by the environment; created on first use and reused for the life of the process. */
export function db(): Db {
  defaultDb ??= createDb(requireEnv(ENV.tableName));
  return defaultDb;
}

type Reservation = Promise<{ first: number; end: number }>;
/** Each process's block of ids per counter, and the next block, reserved once half the current one is used. */
const idBlocks = new Map<string, { next: number; end: number; ahead?: Reservation }>();

/**
 * The next internal id of an entity, from its atomic counter. With `blockSize` above 1, this process reserves that
 * many ids in one write and hands them out from memory: ids stay unique, but leave gaps when a process ends. The
 * next block is reserved in the background once half of the current one is used, so that creating a customer
 * rarely waits for the counter; concurrent creates that do wait share one reservation.
 */
export async function nextId(db: Db, tenantId: number, { entity, blockSize = 1 }: { entity: Entity; blockSize?: number }): Promise<number> {
  if (blockSize === 1) return (await reserveIds(db, tenantId, { entity, size: 1 })).end;
  const blockKey = `${db.tableName}|${tenantId}|${entity}`;
  const block = idBlocks.get(blockKey) ?? idBlocks.set(blockKey, { next: 1, end: 0 }).get(blockKey)!;
  const reserveAhead = () => {
    const ahead = reserveIds(db, tenantId, { entity, size: blockSize });
    // Awaited when the current block runs out; a failure then clears it, so the next create tries again.
    ahead.catch(() => undefined);
    return (block.ahead = ahead);
  };
  while (block.next > block.end) {
    const ahead = block.ahead ?? reserveAhead();
    try {
      const { first, end } = await ahead;
      if (block.ahead === ahead) Object.assign(block, { next: first, end, ahead: undefined });
    } catch (error) {
      if (block.ahead === ahead) block.ahead = undefined;
      throw error;
    }
  }
  const id = block.next++;
  if (!block.ahead && block.end - block.next < blockSize / 2) reserveAhead();
  return id;
}

async function reserveIds({ client, tableName }: Db, tenantId: number, { entity, size }: { entity: Entity; size: number }) {
  const { Attributes } = await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.counter(tenantId, entity),
      UpdateExpression: 'ADD #value :size',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':size': size },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const end = Number(Attributes?.value);
  return { first: end - size + 1, end };
}

export function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/** Whether a conditional write was made: false when its condition failed; any other error is thrown. */
export async function conditionHeld(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** For a cancelled transaction: whether the item at `index` failed its condition. */
export function cancelledByCondition(error: unknown, index: number): boolean {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return false;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons[index]?.Code === 'ConditionalCheckFailed';
}

// ---- Paged queries ------------------------------------------------------------------------------------------

export interface PageRequest {
  limit: number;
  page: number;
  cursor?: string | undefined;
}

export interface QuerySpec {
  index?: IndexName;
  partition: string;
  sortBeginsWith?: string;
  /** Extra conditions on attributes, applied by DynamoDB after the key condition. */
  filters?: Filter[];
}

export type Filter = { attribute: string; equals: string | number | boolean } | { attribute: string; beginsWith: string };

export interface Page {
  items: Item[];
  nextCursor: string | null;
}

/** One partition (of the table or of an index), read from its start: `sortBeginsWith` narrows it to a prefix. */
export interface PartitionSpec {
  index?: IndexName;
  partition: string;
  sortBeginsWith?: string;
  consistent?: true;
}

/**
 * The items of one partition, a page at a time (at most `limit` items each when given), until its end or until the
 * caller stops reading.
 */
export async function* queryPages({ client, tableName }: Db, spec: PartitionSpec, limit?: () => number): AsyncGenerator<Item[]> {
  let startKey: Item | undefined;
  do {
    const out: QueryCommandOutput = await client.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: spec.index,
        KeyConditionExpression: spec.sortBeginsWith ? '#pk = :pk AND begins_with(#sk, :prefix)' : '#pk = :pk',
        ExpressionAttributeNames: {
          '#pk': spec.index ? indexAttributes(spec.index).partitionKey : TABLE.partitionKey,
          ...(spec.sortBeginsWith ? { '#sk': spec.index ? indexAttributes(spec.index).sortKey : TABLE.sortKey } : {}),
        },
        ExpressionAttributeValues: { ':pk': spec.partition, ...(spec.sortBeginsWith ? { ':prefix': spec.sortBeginsWith } : {}) },
        ExclusiveStartKey: startKey,
        ...(spec.consistent ? { ConsistentRead: true } : {}),
        ...(limit ? { Limit: limit() } : {}),
      }),
    );
    yield out.Items ?? [];
    startKey = out.LastEvaluatedKey;
  } while (startKey);
}

/**
 * Every item of one partition (of the table or of an index), page after page: for partitions known to be small, or
 * bounded by `atMost`.
 */
export async function queryAll(database: Db, spec: PartitionSpec & { atMost?: number }): Promise<Item[]> {
  const atMost = spec.atMost ?? Infinity;
  const items: Item[] = [];
  for await (const page of queryPages(database, spec, Number.isFinite(atMost) ? () => atMost - items.length : undefined)) {
    items.push(...page);
    if (items.length >= atMost) break;
  }
  return items;
}

export async function queryPage(database: Db, spec: QuerySpec, request: PageRequest): Promise<Page> {
  const base = queryInput(database.tableName, spec);
  let startKey = request.cursor ? decodeCursor(request.cursor, spec) : await skipItems(database, base, (request.page - 1) * request.limit);
  if (startKey === null) return { items: [], nextCursor: null };

  const items: Item[] = [];
  for (let calls = 0; items.length < request.limit && calls < PAGING.maxQueriesPerPage; calls++) {
    const out: QueryCommandOutput = await database.client.send(
      new QueryCommand({ ...base, Limit: request.limit - items.length, ExclusiveStartKey: startKey }),
    );
    items.push(...(out.Items ?? []));
    startKey = out.LastEvaluatedKey;
    if (!startKey) break;
  }
  return { items, nextCursor: startKey ? encodeCursor(startKey, spec) : null };
}

/**
 * Pages a large collection by id range instead of an index partition that every create would write: a page is one
 * BatchGetItem of `limit` consecutive ids (and a read of the id counter, in parallel), whatever the page number.
 * Ids never used (a create that failed) leave a page short.
 */
export async function pageByIdRange(
  database: Db,
  tenantId: number,
  { entity, request, keep }: { entity: Entity; request: PageRequest; keep: (item: Item) => boolean },
): Promise<Page> {
  const start = request.cursor ? decodeIdCursor(request.cursor, tenantId, entity) : (request.page - 1) * request.limit + 1;
  const ids = Array.from({ length: request.limit }, (_, i) => start + i);
  const [counter, items] = await Promise.all([
    database.client.send(new GetCommand({ TableName: database.tableName, Key: keys.counter(tenantId, entity) })),
    batchGet(
      database,
      ids.map((id) => keys.entity(tenantId, entity, id)),
    ),
  ]);
  const lastId = Number(counter.Item?.value ?? 0);
  const end = start + request.limit - 1;
  return {
    items: items.sort((a, b) => Number(a.id) - Number(b.id)).filter(keep),
    nextCursor: end < lastId ? encodeIdCursor(end + 1, tenantId, entity) : null,
  };
}

/**
 * Reads keys with BatchGetItem, 100 a call, retrying what DynamoDB leaves unprocessed. A key asked twice is asked once
 * (BatchGetItem refuses a list with duplicates: ValidationException). `projection`: only these attributes come back
 * (the read costs the same; the answer is smaller).
 */
export async function batchGet(
  database: Db,
  given: Item[],
  { consistent = false, projection }: { consistent?: boolean; projection?: string[] } = {},
): Promise<Item[]> {
  const keyList = [...new Map(given.map((key) => [JSON.stringify([key.pk, key.sk]), key])).values()];
  if (keyList.length > 100) {
    const chunks = Array.from({ length: Math.ceil(keyList.length / 100) }, (_, i) => keyList.slice(i * 100, i * 100 + 100));
    return (await Promise.all(chunks.map((chunk) => batchGet(database, chunk, { consistent, projection })))).flat();
  }
  const projected = projection && {
    ProjectionExpression: projection.map((_, i) => `#p${i}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(projection.map((name, i) => [`#p${i}`, name])),
  };
  const items: Item[] = [];
  await untilProcessed('BatchGetItem', keyList, async (pending) => {
    const out = await database.client.send(
      new BatchGetCommand({ RequestItems: { [database.tableName]: { Keys: pending, ConsistentRead: consistent, ...projected } } }),
    );
    items.push(...(out.Responses?.[database.tableName] ?? []));
    return (out.UnprocessedKeys?.[database.tableName]?.Keys ?? []) as Item[];
  });
  return items;
}

/** A put or a delete of BatchWriteItem. */
export type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Item } };

/**
 * Writes with BatchWriteItem, 25 a call and the calls side by side, sending again what DynamoDB leaves unprocessed.
 * A key written twice is written once, its last request (BatchWriteItem refuses duplicates), as one write after
 * another would have left it.
 */
export async function batchWrite(database: Db, requests: WriteRequest[]): Promise<void> {
  const byKey = new Map<string, WriteRequest>();
  for (const request of requests) {
    const key = 'PutRequest' in request ? request.PutRequest.Item : request.DeleteRequest.Key;
    byKey.set(JSON.stringify([key[TABLE.partitionKey], key[TABLE.sortKey]]), request);
  }
  const unique = [...byKey.values()];
  const chunks = Array.from({ length: Math.ceil(unique.length / 25) }, (_, i) => unique.slice(i * 25, i * 25 + 25));
  await Promise.all(
    chunks.map((chunk) =>
      untilProcessed('BatchWriteItem', chunk, async (pending) => {
        const out = await database.client.send(new BatchWriteCommand({ RequestItems: { [database.tableName]: pending } }));
        return (out.UnprocessedItems?.[database.tableName] ?? []) as WriteRequest[];
      }),
    ),
  );
}

/** How many times a batch call is made before what DynamoDB still leaves unprocessed fails the request. */
export const BATCH_TRIES = 8;

/**
 * Makes a batch call, then again with what DynamoDB left unprocessed (throttling) after an exponential, jittered pause
 * (at most 1 s; 3.55 s at most in all), up to BATCH_TRIES calls. Then it fails as throttled, so that the caller
 * answers 503 with Retry-After (shared/adapters/unavailable.ts) instead of waiting on a table that stays hot.
 */
async function untilProcessed<T>(command: string, requests: T[], call: (pending: T[]) => Promise<T[]>): Promise<void> {
  let pending = requests;
  for (let attempt = 0; pending.length; attempt++) {
    if (attempt === BATCH_TRIES)
      throw Object.assign(new Error(`${command} left ${pending.length} requests unprocessed ${BATCH_TRIES} times`), {
        name: 'ThrottlingException',
      });
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(1000, 25 * 2 ** attempt)));
    pending = await call(pending);
  }
}

function queryInput(tableName: string, spec: QuerySpec): QueryCommandInput {
  const index = spec.index ? TABLE.indexes.find((i) => i.name === spec.index)! : undefined;
  const names: Record<string, string> = { '#pk': index?.partitionKey ?? TABLE.partitionKey };
  const values: Record<string, unknown> = { ':pk': spec.partition };
  let condition = '#pk = :pk';
  if (spec.sortBeginsWith !== undefined) {
    names['#sk'] = index?.sortKey ?? TABLE.sortKey;
    values[':sk'] = spec.sortBeginsWith;
    condition += ' AND begins_with(#sk, :sk)';
  }
  const filters = (spec.filters ?? []).map((filter, i) => {
    names[`#f${i}`] = filter.attribute;
    if ('equals' in filter) {
      values[`:f${i}`] = filter.equals;
      return `#f${i} = :f${i}`;
    }
    values[`:f${i}`] = filter.beginsWith;
    return `begins_with(#f${i}, :f${i})`;
  });
  return {
    TableName: tableName,
    IndexName: spec.index,
    KeyConditionExpression: condition,
    FilterExpression: filters.length ? filters.join(' AND ') : undefined,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** Walks past `count` matching items reading keys only; null when the collection ends first. */
async function skipItems(database: Db, base: QueryCommandInput, count: number): Promise<Item | undefined | null> {
  if (count > PAGING.maxOffset) {
    throw new ValidationError('The page is too deep.', [
      { path: 'page', message: `page × limit may skip at most ${PAGING.maxOffset} items; walk further with cursor` },
    ]);
  }
  let startKey: Item | undefined;
  let remaining = count;
  while (remaining > 0) {
    const out: QueryCommandOutput = await database.client.send(
      new QueryCommand({ ...base, Limit: remaining, ExclusiveStartKey: startKey, Select: 'COUNT' }),
    );
    remaining -= out.Count ?? 0;
    startKey = out.LastEvaluatedKey;
    if (!startKey) return null;
  }
  return startKey;
}
