import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { keys } from '../keys.js';
import { DEFAULT_MIN_ANSWERS_TO_RANK } from '../results/ranking.js';
import { DIGESTS_DEFAULTS } from '../digest/choices.js';
import { COMMENT_ANALYSIS_DEFAULTS } from '../themes/config.js';
import { TABLE } from '../table.js';
import { type SettingsWrite } from '../tenants/config-schema.js';
import type { DeliveryConfig } from '../settings/delivery.js';
import type { Theme } from '../themes/theme.js';
import { Tenant, type ConfigVersionRaise, type ConfigWrite, type TenantRepository } from '../tenants/ports.js';
import type { AppliedFingerprint } from '../tenants/apply-plan.js';
import { CHATBOT_ENDPOINT, eventEndpoint } from '../events/signature.js';
import { batchWrite, cancelledByCondition, db, isConditionFailure, queryAll, type Item, type WriteRequest } from './dynamodb.js';
import {
  deleteUser,
  findApiKey,
  findApiKeyById,
  findUserByName,
  findUserByToken,
  insertApiKey,
  readRegions,
  insertUser,
  listApiKeys,
  listUsers,
  markApiKeyRevoked,
  noteKeyUse,
  putUser,
  rotateApiKey,
  updateUser,
  updateUserScope,
} from './access-repository.js';
import { brandItem, findLogo, putBrand, recordLogo } from './brand-repository.js';
import { CONFIG_VERSION_COPIES, readConfigVersion, versionOf } from './config-version.js';
import { entity } from './entity.js';
import { rotateSigning } from './event-signing.js';
import { readSettings, readVersionedSettings, SIGNING, VERSION } from './settings-repository.js';

export { CONFIG_VERSION_COPIES, readConfigVersion } from './config-version.js';
export { entity } from './entity.js';

/**
 * The tenants and their configuration (journeys, classes, groups, delivery, the version readers cache by). The tenant's
 * keys and users are ./access-repository.ts's, its brand and logos ./brand-repository.ts's, its event signing
 * ./event-signing.ts's; `tenantRepository` gathers them all for the operator's tenant service.
 */
export async function getTenant(id: number): Promise<Tenant | undefined> {
  const { client, tableName } = db();
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.tenant(id) }));
  return Item ? v.parse(Tenant, Item) : undefined;
}

/** The update that renames a tenant (alone, or in a replacement's claim). */
const renaming = (id: number, name: string) => ({
  TableName: db().tableName,
  Key: keys.tenant(id),
  UpdateExpression: 'SET #name = :name',
  ConditionExpression: 'attribute_exists(pk)',
  ExpressionAttributeNames: { '#name': 'name' },
  ExpressionAttributeValues: { ':name': name },
});

export async function renameTenant(id: number, name: string): Promise<void> {
  await db().client.send(new UpdateCommand(renaming(id, name)));
}

export async function listTenants(): Promise<Tenant[]> {
  return (await queryAll(db(), { index: 'gsi1', partition: keys.tenantCollection() })).map((item) => v.parse(Tenant, item));
}

/** The items a tenant's settings are stored as in its configuration partition. */
const settingsItems = (tenantId: number, settings: SettingsWrite): Item[] =>
  [
    ...settings.journeys.map((journey) => ({ sk: keys.configItem('JOURNEY', journey.id), kind: 'JOURNEY', ...journey })),
    ...settings.classes.map((item) => ({ sk: keys.configItem('CLASS', item.id), kind: 'CLASS', ...item })),
    ...settings.groups.map((group) => ({ sk: keys.configItem('GROUP', group.id), kind: 'GROUP', ...group })),
    ...(settings.regions ?? []).map((region) => ({ sk: keys.configItem('REGION', region.id), kind: 'REGION', ...region })),
    { sk: keys.privacyConfig, kind: 'PRIVACY', retentionDays: settings.privacy?.retentionDays ?? null },
    { sk: keys.casesConfig, kind: 'CASES', ...(settings.cases ?? {}) },
    { sk: keys.alertsConfig, kind: 'ALERTS', ...(settings.alerts ?? {}) },
    { sk: keys.digestsConfig, kind: 'DIGESTS', ...DIGESTS_DEFAULTS, ...settings.digests },
    { sk: keys.analyticsConfig, kind: 'ANALYTICS', ...(settings.analytics ?? {}) },
    { sk: keys.commentAnalysisConfig, kind: 'COMMENT_ANALYSIS', ...COMMENT_ANALYSIS_DEFAULTS, ...settings.commentAnalysis },
    { sk: keys.languageConfig, kind: 'LANGUAGE', locale: settings.locale, timeZone: settings.timeZone },
    { sk: keys.rankingConfig, kind: 'RANKING', minAnswersToRank: settings.minAnswersToRank ?? DEFAULT_MIN_ANSWERS_TO_RANK },
  ].map((item) => ({ pk: keys.config(tenantId), ...entity(item.kind), ...item }));

/**
 * The writes that make a tenant's themes `themes` (the defaults when undefined): one item each in the configuration
 * partition, read with it, and the deletion of each stored one (by slug) it no longer lists.
 */
const themeWrites = (tenantId: number, themes: Theme[] | undefined, stored: string[]): WriteRequest[] => [
  ...(themes ?? []).map((theme) => put({ pk: keys.config(tenantId), sk: keys.themeConfig(theme.slug), ...entity('THEME'), ...theme })),
  ...stored
    .filter((slug) => !themes?.some((theme) => theme.slug === slug))
    .map((slug): WriteRequest => ({ DeleteRequest: { Key: { pk: keys.config(tenantId), sk: keys.themeConfig(slug) } } })),
];

const deliveryItem = (tenantId: number, delivery: DeliveryConfig): Item => ({
  pk: keys.config(tenantId),
  sk: keys.deliveryConfig,
  ...entity('DELIVERY'),
  ...delivery,
});

/** The webhook endpoints a delivery lists, each with its own signing generations. */
const endpointsOf = (delivery: DeliveryConfig): string[] => [
  ...(delivery.chatbot ? [CHATBOT_ENDPOINT] : []),
  ...(delivery.webhooks ?? []).map((w) => eventEndpoint(w.url)),
];

const put = (item: Item): WriteRequest => ({ PutRequest: { Item: item } });

/** Writes the settings (the operator's apply); the themes only when they are listed, replacing the stored ones. */
export async function putSettings(tenantId: number, settings: SettingsWrite): Promise<void> {
  const stored = settings.themes ? ((await readSettings(tenantId)).themes ?? []).map((theme) => theme.slug) : [];
  await batchWrite(db(), [
    ...settingsItems(tenantId, settings).map(put),
    ...(settings.themes ? themeWrites(tenantId, settings.themes, stored) : []),
  ]);
}

/**
 * Gives an endpoint generation 1 of its signing secret unless it has one (a conditional put, so that a rotation made
 * meanwhile is never undone); true when it had none.
 */
async function firstGeneration(tenantId: number, endpoint: string): Promise<boolean> {
  const { client, tableName } = db();
  try {
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: { pk: keys.config(tenantId), sk: keys.webhookSigning(endpoint), ...entity(SIGNING), endpoint, current: 1 },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return false;
  }
}

/**
 * Writes the tenant's delivery settings as the tenant file states them, and gives each webhook endpoint they list
 * that has none yet generation 1 of its signing secret.
 */
export async function putDelivery(tenantId: number, delivery: DeliveryConfig): Promise<{ newEndpoints: string[] }> {
  const { client, tableName } = db();
  await client.send(new PutCommand({ TableName: tableName, Item: deliveryItem(tenantId, delivery) }));
  const newEndpoints: string[] = [];
  for (const endpoint of endpointsOf(delivery)) if (await firstGeneration(tenantId, endpoint)) newEndpoints.push(endpoint);
  return { newEndpoints };
}

/**
 * Writes a replaced configuration (PUT /public/admin/config): its items, delivery and brand, and the deletions of the
 * journeys, classes and groups `write.stored` has that it no longer lists, in BatchWriteItem calls of 25 (one call for
 * a configuration of up to 25 items; any size fits); beside them, the first signing generation of each endpoint
 * `write.signed` lacks. Called between a claim of the version (claimConfigVersion) and its release.
 */
export async function writeConfig(tenantId: number, write: ConfigWrite): Promise<{ newEndpoints: string[] }> {
  const items = settingsItems(tenantId, write.settings);
  const kept = new Set(items.map((item) => item.sk));
  const stored = [
    ...write.stored.journeys.map((j) => keys.configItem('JOURNEY', j.id)),
    ...write.stored.classes.map((c) => keys.configItem('CLASS', c.id)),
    ...write.stored.groups.map((g) => keys.configItem('GROUP', g.id)),
    ...(write.stored.regions ?? []).map((r) => keys.configItem('REGION', r.id)),
  ];
  const deletions = stored
    .filter((sk) => !kept.has(sk))
    .map((sk): WriteRequest => ({ DeleteRequest: { Key: { pk: keys.config(tenantId), sk } } }));
  const unsigned = endpointsOf(write.delivery).filter((endpoint) => !write.signed.includes(endpoint));
  const themes = write.themesChanged
    ? themeWrites(
        tenantId,
        write.settings.themes,
        (write.stored.themes ?? []).map((t) => t.slug),
      )
    : [];
  const [, first] = await Promise.all([
    batchWrite(
      db(),
      [...items, deliveryItem(tenantId, write.delivery), brandItem(tenantId, write.brand)].map(put).concat(deletions, themes),
    ),
    Promise.all(unsigned.map((endpoint) => firstGeneration(tenantId, endpoint))),
  ]);
  return { newEndpoints: unsigned.filter((_, i) => first[i]) };
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
 * claims the version (`writing: 'claim'`, with `expected`; answered as it is, not raised) before it writes and releases
 * it after, raising it by one: no other claim is taken on it meanwhile, and a reader that kept the configuration half
 * written under the version before reads it again, so that one replacement moves the ETag by one. The version is
 * read first only when neither `expected` nor `from` (the one the caller believes current: its claim's, for the
 * release) says where to raise from, or when that guess lost: the transaction's condition checks it either way.
 */
export const raiseConfigVersion = (tenantId: number, { expected, writing, from }: ConfigVersionRaise = {}) =>
  raise(tenantId, { expected, writing, from });

/** A replacement's claim of version `expected`, renaming the tenant in the same transaction when `name` is given. */
export const claimConfigVersion = (tenantId: number, expected: number, name?: string) =>
  raise(tenantId, { expected, writing: 'claim', name });

async function raise(
  tenantId: number,
  { expected, writing, from, name }: { expected?: number; writing?: 'claim' | 'release'; from?: number; name?: string },
): Promise<number | undefined> {
  const { client, tableName } = db();
  let guess = expected ?? from;
  for (let attempt = 1; ; attempt++) {
    const current = guess ?? (await readVersionItem(tenantId));
    // With `expected`, every attempt raises from it; otherwise a lost attempt reads the version again.
    guess = expected;
    // A claim holds the version it found (its release raises it): one replacement moves the version, its ETag, by one.
    const next = writing === 'claim' ? current : current + 1;
    try {
      await client.send(
        new TransactWriteCommand({
          TransactItems: [
            ...Array.from({ length: CONFIG_VERSION_COPIES }, (_, copy) =>
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
            ...(name === undefined ? [] : [{ Update: renaming(tenantId, name) }]),
          ],
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

/** The version item's version, read strongly (the copies follow it). */
async function readVersionItem(tenantId: number): Promise<number> {
  const { client, tableName } = db();
  const { Item } = await client.send(
    new GetCommand({
      TableName: tableName,
      Key: keys.configVersionCopy(tenantId, 0),
      ConsistentRead: true,
      ProjectionExpression: 'version',
    }),
  );
  return versionOf(Item);
}

const transactionConflict = (error: unknown): boolean =>
  error instanceof Error &&
  error.name === 'TransactionCanceledException' &&
  ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).some(
    (reason) => reason.Code === 'TransactionConflict',
  );

const Applied = /* @__PURE__ */ v.object({ fields: v.record(v.string(), v.string()) });

export async function readApplied(tenantId: number): Promise<AppliedFingerprint | undefined> {
  const { client, tableName } = db();
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.configApplied(tenantId), ConsistentRead: true }));
  return Item ? v.parse(Applied, Item).fields : undefined;
}

export async function putApplied(tenantId: number, fields: AppliedFingerprint): Promise<void> {
  const { client, tableName } = db();
  await client.send(new PutCommand({ TableName: tableName, Item: { ...keys.configApplied(tenantId), ...entity('APPLIED'), fields } }));
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
  readRegions,
  raiseConfigVersion,
  claimConfigVersion,
  writeConfig,
  readApplied,
  putApplied,
};
