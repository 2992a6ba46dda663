import { keys } from '../keys.js';
import { TABLE } from '../table.js';
import type { BrandSettings } from '../brand/ports.js';
import { DEFAULT_MIN_ANSWERS_TO_RANK } from '../results/ranking.js';
import { DIGESTS_DEFAULTS, type DigestsConfig } from '../digest/choices.js';
import { ANALYTICS_DEFAULTS, type AnalyticsConfig } from '../analytics/config.js';
import { COMMENT_ANALYSIS_DEFAULTS, type CommentAnalysisConfig } from '../themes/config.js';
import type { CasesConfig } from '../cases/config.js';
import type { AlertsConfig } from '../chat/config.js';
import { PRIVACY_DEFAULTS, type PrivacyConfig } from '../privacy/config.js';
import type { DeliveryConfig } from '../settings/delivery.js';
import type { ClassConfig, GroupConfig, JourneyConfig } from '../settings/journeys.js';
import type { Settings } from '../settings/settings.js';
import { CASE_RULE_DEFAULTS, JOURNEY_DEFAULTS } from '../settings/scales.js';
import type { Locale } from '../locale.js';
import type { RegionConfig } from '../regions.js';
import type { Theme } from '../themes/theme.js';
import type { SigningGenerations } from '../events/signature.js';
import { versionOf } from './config-version.js';
import { batchGet, db, queryAll, type Item } from './dynamodb.js';

/**
 * A tenant's settings as the functions that use them read them: the items of its configuration partition turned into
 * records, without the configuration's schemas. Every write of these items takes a value its schema has parsed (the
 * tenant file, the admin API: tenant-repository.ts's putSettings, putDelivery, putBrand), so the reader does not judge
 * them again; it drops the table's own attributes and gives a field left out what the schema would (an item written
 * before the field existed). Building those schemas cost every function that reads settings 5% of its cold start
 * (`npm run bench -- cold-start`); test/integration/settings-reader.test.ts checks that this reader answers what
 * parsing the same items with the schemas answers.
 */

/** The attributes of a configuration item that belong to the table, not to the record it holds. */
const TABLE_ATTRIBUTES = new Set([TABLE.partitionKey, TABLE.sortKey, TABLE.entityAttribute, 'kind']);

/** The record an item holds. */
export const recordOf = <T>(item: Item): T => Object.fromEntries(Object.entries(item).filter(([name]) => !TABLE_ATTRIBUTES.has(name))) as T;

const journeyOf = (item: Item): JourneyConfig => {
  const journey = recordOf<JourneyConfig>(item);
  return { ...JOURNEY_DEFAULTS, ...journey, ...(journey.cases ? { cases: { ...CASE_RULE_DEFAULTS, ...journey.cases } } : {}) };
};

export const SIGNING = 'WEBHOOK_SIGNING';
/** The QR generation's item (shared/adapters/qr-repository.ts). */
export const QR_GENERATION = 'QR_GENERATION';
/** The configuration version's item (its copies are `CONFIG_VERSION_COPY`). */
export const VERSION = 'CONFIG_VERSION';

/** An endpoint's signing generations as its item holds them. */
export const signingOf = (item: Item): SigningGenerations => ({
  current: Number(item.current),
  ...(item.previousGeneration && item.previousUntil
    ? { previous: { generation: Number(item.previousGeneration), until: String(item.previousUntil) } }
    : {}),
});

/** The groups of a tenant among `ids`, in one BatchGetItem. */
export async function getGroups(tenantId: number, ids: number[]): Promise<GroupConfig[]> {
  const items = await batchGet(
    db(),
    ids.map((id) => ({ pk: keys.config(tenantId), sk: keys.configItem('GROUP', id) })),
  );
  return items.map((item) => recordOf<GroupConfig>(item)).sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
}

/**
 * A tenant's journeys, classes, groups, themes, delivery and privacy settings, with the version they were read at: one strongly
 * consistent Query of its configuration partition (which holds the version item too).
 */
export async function readVersionedSettings(tenantId: number): Promise<{ settings: Settings; version: number }> {
  const items = await queryAll(db(), { partition: keys.config(tenantId), consistent: true });
  const of = (kind: string) => items.filter((item) => item[TABLE.entityAttribute] === kind);
  const one = <T>(kind: string): T | undefined => {
    const [item] = of(kind);
    return item && recordOf<T>(item);
  };
  const signing = of(SIGNING);
  const { locale, timeZone } = one<{ locale?: Locale | null; timeZone?: string | null }>('LANGUAGE') ?? {};
  const brand = one<BrandSettings>('BRAND');
  const qr = one<{ generation?: number }>(QR_GENERATION);
  const themes = of('THEME').map((item) => recordOf<Theme>(item));
  const settings: Settings = {
    journeys: of('JOURNEY').map(journeyOf),
    classes: of('CLASS').map((item) => recordOf<ClassConfig>(item)),
    groups: of('GROUP').map((item) => recordOf<GroupConfig>(item)),
    regions: of('REGION').map((item) => recordOf<RegionConfig>(item)),
    delivery: {
      ...one<DeliveryConfig>('DELIVERY'),
      ...(signing.length ? { signing: Object.fromEntries(signing.map((item) => [String(item.endpoint), signingOf(item)])) } : {}),
    },
    privacy: { ...PRIVACY_DEFAULTS, ...one<PrivacyConfig>('PRIVACY') },
    cases: one<CasesConfig>('CASES') ?? {},
    minAnswersToRank: one<{ minAnswersToRank: number }>('RANKING')?.minAnswersToRank ?? DEFAULT_MIN_ANSWERS_TO_RANK,
    alerts: { scoreDrop: false, ...one<AlertsConfig>('ALERTS') },
    digests: { ...DIGESTS_DEFAULTS, ...one<DigestsConfig>('DIGESTS') },
    analytics: { ...ANALYTICS_DEFAULTS, ...one<AnalyticsConfig>('ANALYTICS') },
    commentAnalysis: { ...COMMENT_ANALYSIS_DEFAULTS, ...one<CommentAnalysisConfig>('COMMENT_ANALYSIS') },
    ...(locale ? { locale } : {}),
    ...(timeZone ? { timeZone } : {}),
    ...(brand ? { brand } : {}),
    ...(qr?.generation ? { qrGeneration: Number(qr.generation) } : {}),
    ...(themes.length ? { themes } : {}),
  };
  return { settings, version: versionOf(of(VERSION)[0]) };
}

export const readSettings = async (tenantId: number): Promise<Settings> => (await readVersionedSettings(tenantId)).settings;
