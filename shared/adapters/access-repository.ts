import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { keys } from '../keys.js';
import { indexAttributes, inIndex } from '../table.js';
import type { UserScope } from '../access/user-scope.js';
import { ApiKeyRecord, UserRecord, type TenantAccessRepository } from '../access/ports.js';
import type { RegionConfig } from '../regions.js';
import { readConfigVersion } from './config-version.js';
import { cancelledByCondition, db, isConditionFailure, queryAll, type Item } from './dynamodb.js';
import { entity } from './entity.js';

/** gsi1 holds the tenants, and each tenant's keys and users. */
const COLLECTION = /* @__PURE__ */ indexAttributes('gsi1');

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

/** The tenant's regions: one strongly consistent Query of its configuration partition's region items. */
export async function readRegions(tenantId: number): Promise<RegionConfig[]> {
  const items = await queryAll(db(), { partition: keys.config(tenantId), sortBeginsWith: keys.configItems('REGION'), consistent: true });
  return items.map((item) => ({
    id: Number(item.id),
    name: String(item.name),
    stores: (item.stores as number[] | undefined) ?? [],
    ...(item.parent === undefined ? {} : { parent: Number(item.parent) }),
  }));
}

export const tenantAccessRepository: TenantAccessRepository = {
  findApiKey,
  findUserByToken,
  findUserByName,
  noteKeyUse,
  readConfigVersion,
  readRegions,
};

// ---- API keys -----------------------------------------------------------------------------------------------

/** A key's item: under its hash, in its tenant's key collection (gsi1) by its id. */
const apiKeyItem = (hash: string, record: ApiKeyRecord): Item => ({
  ...keys.apiKey(hash),
  ...entity('APIKEY'),
  ...inIndex('gsi1', keys.apiKeyCollection(record.tenantId), record.keyId),
  ...record,
});

/** Stores a key by its hash. Putting the same key again keeps the first record (and its revocation). */
export async function insertApiKey(hash: string, record: ApiKeyRecord): Promise<boolean> {
  const { client, tableName } = db();
  try {
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: apiKeyItem(hash, record),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function listApiKeys(tenantId: number): Promise<(ApiKeyRecord & { hash: string })[]> {
  const items = await queryAll(db(), { index: 'gsi1', partition: keys.apiKeyCollection(tenantId) });
  return items.map((item) => ({ ...v.parse(ApiKeyRecord, item), hash: keys.apiKeyHashOf(String(item.pk)) }));
}

/** Revokes a key that is not revoked yet: of two revocations at once, one writes its time, the other learns it. */
export async function markApiKeyRevoked(hash: string, at: string): Promise<'revoked' | 'already' | 'missing'> {
  const { client, tableName } = db();
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.apiKey(hash),
        UpdateExpression: 'SET revoked_at = :at',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(revoked_at) OR revoked_at = :null)',
        ExpressionAttributeValues: { ':at': at, ':null': null },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'revoked';
  } catch (error) {
    if (isConditionFailure(error)) return (error as { Item?: unknown }).Item ? 'already' : 'missing';
    throw error;
  }
}

/** The key of an id: its gsi1 entry names its hash (the index may lag a moment), then the key itself, read strongly. */
export async function findApiKeyById(tenantId: number, keyId: string): Promise<(ApiKeyRecord & { hash: string }) | undefined> {
  const { client, tableName } = db();
  const { Items = [] } = await client.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: '#pk = :pk AND #sk = :id',
      ExpressionAttributeNames: { '#pk': COLLECTION.partitionKey, '#sk': COLLECTION.sortKey },
      ExpressionAttributeValues: { ':pk': keys.apiKeyCollection(tenantId), ':id': keyId },
    }),
  );
  const hash = Items[0] ? keys.apiKeyHashOf(String(Items[0].pk)) : undefined;
  if (!hash) return undefined;
  const record = await findApiKey(hash);
  return record && record.tenantId === tenantId ? { ...record, hash } : undefined;
}

/** The successor's put and the key's update in one transaction, conditional on the key being neither revoked nor rotated. */
export async function rotateApiKey(hash: string, successor: { hash: string; record: ApiKeyRecord }, expiresAt: string): Promise<boolean> {
  const { client, tableName } = db();
  try {
    await client.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: apiKeyItem(successor.hash, successor.record),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              TableName: tableName,
              Key: keys.apiKey(hash),
              UpdateExpression: 'SET expires_at = :expires, rotated_to = :successor',
              ConditionExpression:
                'attribute_exists(pk) AND (attribute_not_exists(revoked_at) OR revoked_at = :null) AND (attribute_not_exists(rotated_to) OR rotated_to = :null)',
              ExpressionAttributeValues: { ':expires': expiresAt, ':successor': successor.record.keyId, ':null': null },
            },
          },
        ],
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof Error && error.name === 'TransactionCanceledException') return false;
    throw error;
  }
}
// ---- Users --------------------------------------------------------------------------------------------------

/** A user's item and its name item, written together; `onlyNew`: only while no user holds the name. */
const userWrite = (tenantId: number, user: UserRecord, onlyNew: boolean) => {
  const { tableName } = db();
  return new TransactWriteCommand({
    TransactItems: [
      {
        Put: {
          TableName: tableName,
          Item: {
            ...keys.userToken(tenantId, user.tokenHash),
            ...entity('USER'),
            ...inIndex('gsi1', keys.userCollection(tenantId), user.name),
            ...user,
          },
        },
      },
      {
        Put: {
          TableName: tableName,
          Item: { ...keys.userName(tenantId, user.name), ...entity('USER_NAME'), tokenHash: user.tokenHash },
          ...(onlyNew ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}),
        },
      },
    ],
  });
};

/** Writes a user and its name item together (the operator's replace by name). */
export async function putUser(tenantId: number, user: UserRecord): Promise<void> {
  await db().client.send(userWrite(tenantId, user, false));
}

/** Writes a new user and its name item together, unless a user holds the name already: false then, nothing written. */
export async function insertUser(tenantId: number, user: UserRecord): Promise<boolean> {
  try {
    await db().client.send(userWrite(tenantId, user, true));
    return true;
  } catch (error) {
    if (cancelledByCondition(error, 1)) return false;
    throw error;
  }
}

export async function deleteUser(tenantId: number, tokenHash: string): Promise<void> {
  const { client, tableName } = db();
  await client.send(new DeleteCommand({ TableName: tableName, Key: keys.userToken(tenantId, tokenHash) }));
}

export async function updateUserScope(tenantId: number, tokenHash: string, scope: UserScope): Promise<void> {
  const { client, tableName } = db();
  await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.userToken(tenantId, tokenHash),
      UpdateExpression: 'SET #scope = :scope',
      ExpressionAttributeNames: { '#scope': 'scope' },
      ExpressionAttributeValues: { ':scope': scope },
    }),
  );
}

export async function listUsers(tenantId: number): Promise<UserRecord[]> {
  return (await queryAll(db(), { index: 'gsi1', partition: keys.userCollection(tenantId) })).map((item) => v.parse(UserRecord, item));
}

export async function updateUser(
  tenantId: number,
  tokenHash: string,
  fields: Partial<Pick<UserRecord, 'scope' | 'role' | 'disabled_at' | 'digest'>> & { phone?: string | null },
): Promise<UserRecord> {
  const { client, tableName } = db();
  // Only the fields given are written: two admins changing different fields at once both keep their change. A phone
  // given as null is removed.
  const given = (['scope', 'role', 'disabled_at', 'digest', 'phone'] as const).filter(
    (field) => fields[field] !== undefined && !(field === 'phone' && fields.phone === null),
  );
  const set = given.length ? `SET ${given.map((field) => `#${field} = :${field}`).join(', ')}` : '';
  const remove = fields.phone === null ? 'REMOVE #phone' : '';
  const { Attributes } = await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.userToken(tenantId, tokenHash),
      UpdateExpression: [set, remove].filter(Boolean).join(' '),
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: {
        ...Object.fromEntries(given.map((field) => [`#${field}`, field])),
        ...(remove ? { '#phone': 'phone' } : {}),
      },
      ...(given.length ? { ExpressionAttributeValues: Object.fromEntries(given.map((field) => [`:${field}`, fields[field]])) } : {}),
      ReturnValues: 'ALL_NEW',
    }),
  );
  return v.parse(UserRecord, Attributes);
}
