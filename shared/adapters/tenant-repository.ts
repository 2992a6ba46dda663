import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { keys } from '../keys.js';
import { indexAttributes, inIndex, TABLE } from '../table.js';
import type { BrandSettings, DeliveryConfig, Settings, SettingsWrite, UserScope } from '../tenants/config-schema.js';
import { LogoObject } from '../tenants/logo.js';
import { ApiKeyRecord, Tenant, UserRecord, type TenantRepository } from '../tenants/ports.js';
import { CHATBOT_ENDPOINT, eventEndpoint, type SigningGenerations } from '../events/signature.js';
import { batchWrite, cancelledByCondition, db, isConditionFailure, queryAll, type Item } from './dynamodb.js';
import { findApiKey, findUserByName, findUserByToken, noteKeyUse } from './tenant-access-repository.js';
import { CONFIG_VERSION_COPIES, readConfigVersion, versionOf } from './config-version.js';
import { readSettings, readVersionedSettings, SIGNING, signingOf, VERSION } from './settings-repository.js';

export { CONFIG_VERSION_COPIES, readConfigVersion } from './config-version.js';

/** The entity attribute of an item (which kind of thing it is). */
export const entity = (name: string) => ({ [TABLE.entityAttribute]: name });

export async function getTenant(id: number): Promise<Tenant | undefined> {
  const { client, tableName } = db();
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.tenant(id) }));
  return Item ? v.parse(Tenant, Item) : undefined;
}

export async function renameTenant(id: number, name: string): Promise<void> {
  const { client, tableName } = db();
  await client.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.tenant(id),
      UpdateExpression: 'SET #name = :name',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#name': 'name' },
      ExpressionAttributeValues: { ':name': name },
    }),
  );
}

export async function listTenants(): Promise<Tenant[]> {
  return (await queryAll(db(), { index: 'gsi1', partition: keys.tenantCollection() })).map((item) => v.parse(Tenant, item));
}

// ---- API keys -----------------------------------------------------------------------------------------------

const KEY_COLLECTION = indexAttributes('gsi1');

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
      ExpressionAttributeNames: { '#pk': KEY_COLLECTION.partitionKey, '#sk': KEY_COLLECTION.sortKey },
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
  fields: Partial<Pick<UserRecord, 'scope' | 'role' | 'disabled_at'>> & { phone?: string | null },
): Promise<UserRecord> {
  const { client, tableName } = db();
  // Only the fields given are written: two admins changing different fields at once both keep their change. A phone
  // given as null is removed.
  const given = (['scope', 'role', 'disabled_at', 'phone'] as const).filter(
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

// ---- Configuration: journeys, classes, groups ---------------------------------------------------------------

export const brandItem = (tenantId: number, brand: BrandSettings): Item => ({
  pk: keys.config(tenantId),
  sk: keys.brandConfig,
  ...entity('BRAND'),
  ...brand,
});

/** Replaces the tenant's brand. */
export async function putBrand(tenantId: number, brand: BrandSettings): Promise<void> {
  const { client, tableName } = db();
  await client.send(new PutCommand({ TableName: tableName, Item: brandItem(tenantId, brand) }));
}

const LogoItem = v.object(LogoObject.entries);

/**
 * Records a logo as the tenant's, counted on the tenant's item (`logo_count`) in the same transaction; with `atMost`,
 * only while the tenant has recorded fewer: `full` otherwise. `exists` when it was recorded already (not counted again).
 */
export async function recordLogo(tenantId: number, logo: LogoObject, atMost?: number): Promise<'recorded' | 'exists' | 'full'> {
  const { client, tableName } = db();
  try {
    await client.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName,
              Item: { ...keys.tenantLogo(tenantId, logo.file), ...entity('LOGO'), ...logo },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              TableName: tableName,
              Key: keys.tenant(tenantId),
              UpdateExpression: 'ADD logo_count :one',
              ...(atMost === undefined ? {} : { ConditionExpression: 'attribute_not_exists(logo_count) OR logo_count < :most' }),
              ExpressionAttributeValues: { ':one': 1, ...(atMost === undefined ? {} : { ':most': atMost }) },
            },
          },
        ],
      }),
    );
    return 'recorded';
  } catch (error) {
    if (cancelledByCondition(error, 0)) return 'exists';
    if (cancelledByCondition(error, 1)) return 'full';
    throw error;
  }
}

export async function findLogo(tenantId: number, file: string): Promise<LogoObject | undefined> {
  const { client, tableName } = db();
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.tenantLogo(tenantId, file), ConsistentRead: true }));
  return Item && v.parse(LogoItem, Item);
}

export async function putSettings(tenantId: number, settings: SettingsWrite): Promise<void> {
  const items = [
    ...settings.journeys.map((journey) => ({ sk: keys.configItem('JOURNEY', journey.id), kind: 'JOURNEY', ...journey })),
    ...settings.classes.map((item) => ({ sk: keys.configItem('CLASS', item.id), kind: 'CLASS', ...item })),
    ...settings.groups.map((group) => ({ sk: keys.configItem('GROUP', group.id), kind: 'GROUP', ...group })),
    { sk: keys.privacyConfig, kind: 'PRIVACY', retentionDays: settings.privacy?.retentionDays ?? null },
    { sk: keys.casesConfig, kind: 'CASES', ...(settings.cases ?? {}) },
    { sk: keys.languageConfig, kind: 'LANGUAGE', locale: settings.locale, timeZone: settings.timeZone },
  ];
  await batchWrite(
    db(),
    items.map((item) => ({ PutRequest: { Item: { pk: keys.config(tenantId), ...entity(item.kind), ...item } } })),
  );
}

/**
 * Writes the tenant's delivery settings as the tenant file states them, and gives each webhook endpoint they list
 * that has none yet generation 1 of its signing secret (a conditional put per endpoint, so that a rotation made
 * meanwhile is never undone).
 */
export async function putDelivery(tenantId: number, delivery: DeliveryConfig): Promise<{ newEndpoints: string[] }> {
  const { client, tableName } = db();
  await client.send(
    new PutCommand({
      TableName: tableName,
      Item: { pk: keys.config(tenantId), sk: keys.deliveryConfig, ...entity('DELIVERY'), ...delivery },
    }),
  );
  const endpoints = [...(delivery.chatbot ? [CHATBOT_ENDPOINT] : []), ...(delivery.webhooks ?? []).map((w) => eventEndpoint(w.url))];
  const newEndpoints: string[] = [];
  for (const endpoint of endpoints) {
    try {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: { pk: keys.config(tenantId), sk: keys.webhookSigning(endpoint), ...entity(SIGNING), endpoint, current: 1 },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      newEndpoints.push(endpoint);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  return { newEndpoints };
}

/** One atomic update: two rotations at once raise the generation twice, each answering its own. */
export async function rotateSigning(
  tenantId: number,
  endpoint: string,
  previousUntil: string,
  now: string,
): Promise<SigningGenerations | undefined> {
  const { client, tableName } = db();
  // A rotation with an overlap waits for the last one's to end (else the generation receivers hold stops at once); a
  // hard cutover (no overlap) is taken whenever.
  const overlap = previousUntil > now;
  try {
    const { Attributes } = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: keys.config(tenantId), sk: keys.webhookSigning(endpoint) },
        UpdateExpression:
          'SET #entity = :entity, endpoint = :endpoint, previousGeneration = if_not_exists(#current, :one), #current = if_not_exists(#current, :one) + :one, previousUntil = :until',
        ...(overlap ? { ConditionExpression: 'attribute_not_exists(previousUntil) OR previousUntil <= :now' } : {}),
        ExpressionAttributeNames: { '#entity': TABLE.entityAttribute, '#current': 'current' },
        ExpressionAttributeValues: {
          ':entity': SIGNING,
          ':endpoint': endpoint,
          ':one': 1,
          ':until': previousUntil,
          ...(overlap ? { ':now': now } : {}),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return signingOf(Attributes!);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

const VERSION_COPY = 'CONFIG_VERSION_COPY';
/** A raise that lost to another at the same time tries again from the version that one wrote, this many times. */
const RAISE_ATTEMPTS = 10;

/**
 * How long a replacement's claim holds off others (`writing` 'claim' to 'release'): longer than a function runs (10 s
 * by default), so that a claim left by a crash lapses without blocking the admin API for long.
 */
const WRITING_CLAIM_SECONDS = 60;

/**
 * Raises the configuration's version by one and answers the new one; with `expected`, only if it is still that one
 * (undefined otherwise: someone changed the configuration since). All copies are written in one transaction whose
 * condition is on copy 0 (the version item), so concurrent raises serialize and leave every copy equal. A replacement
 * claims the version (`writing: 'claim'`, with `expected`) before it writes and releases it after: while claimed, the
 * version a reader sees is that of a configuration half written, and no other claim is taken on it.
 */
export async function raiseConfigVersion(tenantId: number, expected?: number, writing?: 'claim' | 'release'): Promise<number | undefined> {
  const { client, tableName } = db();
  for (let attempt = 1; ; attempt++) {
    const { Item } = await client.send(
      new GetCommand({
        TableName: tableName,
        Key: keys.configVersionCopy(tenantId, 0),
        ConsistentRead: true,
        ProjectionExpression: 'version',
      }),
    );
    const current = versionOf(Item);
    if (expected !== undefined && current !== expected) return undefined;
    const next = current + 1;
    try {
      await client.send(
        new TransactWriteCommand({
          TransactItems: Array.from({ length: CONFIG_VERSION_COPIES }, (_, copy) =>
            copy === 0
              ? {
                  Update: {
                    TableName: tableName,
                    Key: keys.configVersionCopy(tenantId, 0),
                    UpdateExpression: `SET #entity = :entity, version = :next${
                      writing === 'claim' ? ', writing_until = :until' : writing === 'release' ? ' REMOVE writing_until' : ''
                    }`,
                    ConditionExpression: `(${current === 0 ? 'attribute_not_exists(version) OR version = :zero' : 'version = :current'})${
                      writing === 'claim' ? ' AND (attribute_not_exists(writing_until) OR writing_until < :now)' : ''
                    }`,
                    ExpressionAttributeNames: { '#entity': TABLE.entityAttribute },
                    ExpressionAttributeValues: {
                      ':entity': VERSION,
                      ':next': next,
                      ...(current === 0 ? { ':zero': 0 } : { ':current': current }),
                      ...(writing === 'claim'
                        ? {
                            ':now': new Date().toISOString(),
                            ':until': new Date(Date.now() + WRITING_CLAIM_SECONDS * 1000).toISOString(),
                          }
                        : {}),
                    },
                  },
                }
              : {
                  Put: {
                    TableName: tableName,
                    Item: { ...keys.configVersionCopy(tenantId, copy), [TABLE.entityAttribute]: VERSION_COPY, version: next },
                  },
                },
          ),
        }),
      );
      return next;
    } catch (error) {
      const lost = cancelledByCondition(error, 0) || transactionConflict(error);
      if (!lost) throw error;
      // Another raise came first: with `expected`, the configuration changed; without, raise from its version.
      if (expected !== undefined && cancelledByCondition(error, 0)) return undefined;
      if (attempt >= RAISE_ATTEMPTS) throw error;
    }
  }
}

const transactionConflict = (error: unknown): boolean =>
  error instanceof Error &&
  error.name === 'TransactionCanceledException' &&
  ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).some(
    (reason) => reason.Code === 'TransactionConflict',
  );

/** Removes the journeys, classes and groups the tenant has that `settings` no longer lists. */
export async function removeUnlisted(tenantId: number, settings: Pick<Settings, 'journeys' | 'classes' | 'groups'>): Promise<void> {
  const kept = new Set([
    ...settings.journeys.map((j) => keys.configItem('JOURNEY', j.id)),
    ...settings.classes.map((c) => keys.configItem('CLASS', c.id)),
    ...settings.groups.map((g) => keys.configItem('GROUP', g.id)),
  ]);
  const items = await queryAll(db(), { partition: keys.config(tenantId), consistent: true });
  const unlisted = items.filter(
    (item) => ['JOURNEY', 'CLASS', 'GROUP'].includes(String(item[TABLE.entityAttribute])) && !kept.has(String(item.sk)),
  );
  await batchWrite(
    db(),
    unlisted.map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } })),
  );
}

export const tenantRepository: TenantRepository = {
  getTenant,
  renameTenant,
  listTenants,
  findApiKey,
  insertApiKey,
  listApiKeys,
  markApiKeyRevoked,
  findApiKeyById,
  rotateApiKey,
  noteKeyUse,
  findUserByToken,
  findUserByName,
  putUser,
  insertUser,
  deleteUser,
  updateUserScope,
  listUsers,
  updateUser,
  putSettings,
  putBrand,
  recordLogo,
  findLogo,
  putDelivery,
  rotateSigning,
  readSettings,
  readVersionedSettings,
  readConfigVersion,
  raiseConfigVersion,
  removeUnlisted,
};
