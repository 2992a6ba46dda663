import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { keys } from '../keys.js';
import { indexAttributes } from '../table.js';
import { ApiKeyRecord, UserRecord, type TenantAccessRepository } from '../tenants/ports.js';
import { readConfigVersion } from './config-version.js';
import { db, isConditionFailure } from './dynamodb.js';

/** gsi1 holds the tenants, and each tenant's keys and users. */
const COLLECTION = indexAttributes('gsi1');

/**
 * The reads that check a caller (a key, a user token, a signed-in user's name), apart from the tenant repository so
 * that every function behind the API bundles only these. A key is read strongly (1 read unit): a revocation or a
 * rotation's end holds from the next request.
 */
export async function findApiKey(hash: string): Promise<ApiKeyRecord | undefined> {
  const { client, tableName } = db();
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.apiKey(hash), ConsistentRead: true }));
  return Item ? v.parse(ApiKeyRecord, Item) : undefined;
}

/**
 * One conditional UpdateItem (1 write unit on the item, 1 on its gsi1 entry, which projects it): written only when the
 * recorded use is older than `unlessAfter`, so that authorizers racing on one key write it once.
 */
export async function noteKeyUse(hash: string, at: string, unlessAfter: string): Promise<void> {
  const { client, tableName } = db();
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.apiKey(hash),
        UpdateExpression: 'SET last_used_at = :at',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at = :null OR last_used_at < :after)',
        ExpressionAttributeValues: { ':at': at, ':after': unlessAfter, ':null': null },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

export async function findUserByToken(tenantId: number, tokenHash: string): Promise<UserRecord | undefined> {
  const { client, tableName } = db();
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.userToken(tenantId, tokenHash) }));
  return Item ? v.parse(UserRecord, Item) : undefined;
}

/**
 * The user of a name, read consistently through its name item (the apply command decides from it what to write).
 * Users written before name items existed are found through the index, which may lag a moment behind a write.
 */
export async function findUserByName(tenantId: number, name: string): Promise<UserRecord | undefined> {
  const { client, tableName } = db();
  const { Item: pointer } = await client.send(
    new GetCommand({ TableName: tableName, Key: keys.userName(tenantId, name), ConsistentRead: true }),
  );
  if (typeof pointer?.tokenHash === 'string') {
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.userToken(tenantId, pointer.tokenHash), ConsistentRead: true }),
    );
    return Item ? v.parse(UserRecord, Item) : undefined;
  }
  const { Items } = await client.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: '#pk = :pk AND #sk = :name',
      ExpressionAttributeNames: { '#pk': COLLECTION.partitionKey, '#sk': COLLECTION.sortKey },
      ExpressionAttributeValues: { ':pk': keys.userCollection(tenantId), ':name': name },
    }),
  );
  return Items?.[0] ? v.parse(UserRecord, Items[0]) : undefined;
}

export const tenantAccessRepository: TenantAccessRepository = {
  findApiKey,
  findUserByToken,
  findUserByName,
  noteKeyUse,
  readConfigVersion,
};
