import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { keys } from '../keys.js';
import { indexAttributes } from '../table.js';
import { ApiKeyRecord, UserRecord, type TenantAccessRepository } from '../tenants/ports.js';
import { db } from './dynamodb.js';

/** gsi1 holds the tenants, and each tenant's keys and users. */
const COLLECTION = indexAttributes('gsi1');

/** The reads that check a caller (a key, a user token, a signed-in user's name), apart from the tenant repository so that every function behind the API bundles only these. */
export async function findApiKey(hash: string): Promise<ApiKeyRecord | undefined> {
  const { client, tableName } = db();
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.apiKey(hash) }));
  return Item ? v.parse(ApiKeyRecord, Item) : undefined;
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

export const tenantAccessRepository: TenantAccessRepository = { findApiKey, findUserByToken, findUserByName };
