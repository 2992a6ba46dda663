import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { FieldProblem } from '../errors.js';
import { keys } from '../keys.js';
import { TABLE } from '../table.js';
import { Transaction } from '../transactions/schema.js';
import { db, isConditionFailure, type Item } from './dynamodb.js';

/** How long the outcome of a rejected request stays readable. */
export const REJECTION_TTL_DAYS = 30;
/** Transaction ids are taken from the counter this many at a time, so most transactions cost no counter write. */
export const ID_BLOCK_SIZE = 50;

export type RequestRecord =
  | { status: 'created'; transaction: Transaction; extra: Item }
  | { status: 'rejected'; errors: FieldProblem[]; receivedAt: string };

const Rejection = v.object({ errors: v.array(v.object({ path: v.string(), message: v.string() })), received_at: v.string() });

/** The created transaction or the rejection an item under a request key holds. */
export function toRecord(item: Item): RequestRecord {
  if (item.status === 'rejected') {
    const rejection = v.parse(Rejection, item);
    return { status: 'rejected', errors: rejection.errors, receivedAt: rejection.received_at };
  }
  return { status: 'created', transaction: v.parse(Transaction, item), extra: item };
}

export async function findByRequestKey(tenantId: number, requestKey: string): Promise<RequestRecord | undefined> {
  const { client, tableName } = db();
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.transaction(tenantId, requestKey) }));
  return Item ? toRecord(Item) : undefined;
}

export async function findById(tenantId: number, id: number): Promise<Transaction | undefined> {
  const { client, tableName } = db();
  const { Items } = await client.send(
    new QueryCommand({ TableName: tableName, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.transactionById(tenantId, id) }, Limit: 1 }),
  );
  return Items?.[0] ? v.parse(Transaction, Items[0]) : undefined;
}

/** The item may be written when nothing, or only a rejection, is stored under its key. */
const writable = { ConditionExpression: 'attribute_not_exists(pk) OR #status = :rejected', ExpressionAttributeNames: { '#status': 'status' }, ExpressionAttributeValues: { ':rejected': 'rejected' } };

/**
 * Stores a created transaction with one conditional write. False when the key already holds a created
 * transaction: the request is a duplicate and nothing was written.
 */
export async function putCreated(tenantId: number, requestKey: string, transaction: Transaction, extra: Item): Promise<boolean> {
  const { client, tableName } = db();
  const Item = {
    ...keys.transaction(tenantId, requestKey),
    [TABLE.entityAttribute]: 'TRANSACTION',
    gsi1pk: keys.transactionById(tenantId, transaction.id),
    gsi1sk: 'TX',
    status: 'created',
    ...extra,
    ...transaction,
  };
  try {
    await client.send(new PutCommand({ TableName: tableName, Item, ...writable }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Records why a request was rejected, readable for REJECTION_TTL_DAYS; never over a created transaction. */
export async function putRejected(tenantId: number, requestKey: string, errors: FieldProblem[], receivedAt: string): Promise<void> {
  const { client, tableName } = db();
  const expiresAt = Math.floor(Date.now() / 1000) + REJECTION_TTL_DAYS * 86_400;
  try {
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.transaction(tenantId, requestKey), [TABLE.entityAttribute]: 'TRANSACTION_REJECTION', status: 'rejected', errors, received_at: receivedAt, [TABLE.ttlAttribute]: expiresAt },
        ...writable,
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * Takes the customer's survey slot on a journey: succeeds when the customer was not surveyed on it within the
 * window, and records now. One conditional write, so two transactions at once cannot both survey.
 */
export async function claimSurveySlot(tenantId: number, customerId: number, journeyId: number, windowDays: number, now: Date): Promise<boolean> {
  const { client, tableName } = db();
  const cutoff = new Date(now.getTime() - windowDays * 86_400_000).toISOString();
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.surveyed(tenantId, customerId, journeyId),
        UpdateExpression: 'SET surveyed_at = :now, #entity = :entity, #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(surveyed_at) OR surveyed_at < :cutoff',
        ExpressionAttributeNames: { '#entity': TABLE.entityAttribute, '#ttl': TABLE.ttlAttribute },
        ExpressionAttributeValues: { ':now': now.toISOString(), ':cutoff': cutoff, ':entity': 'SURVEYED', ':ttl': Math.floor(now.getTime() / 1000) + windowDays * 86_400 },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

const blocks = new Map<number, { next: number; end: number }>();

/** The next transaction id of a tenant, from a block of ID_BLOCK_SIZE ids this process reserved. */
export async function allocateTransactionId(tenantId: number): Promise<number> {
  let block = blocks.get(tenantId);
  if (!block || block.next > block.end) {
    const { client, tableName } = db();
    const { Attributes } = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.counter(tenantId, 'TRANSACTION'),
        UpdateExpression: 'ADD #value :size',
        ExpressionAttributeNames: { '#value': 'value' },
        ExpressionAttributeValues: { ':size': ID_BLOCK_SIZE },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const end = Number(Attributes?.value);
    block = { next: end - ID_BLOCK_SIZE + 1, end };
    blocks.set(tenantId, block);
  }
  return block.next++;
}
