import { ANALYTICS_DEFAULTS } from '../analytics/config.js';
import { DEFAULT_LOCALE, timeZoneOf } from '../locale.js';
import { DEFAULT_MIN_ANSWERS_TO_RANK } from '../results/ranking.js';
import type { ConfigChange } from '../audit/log.js';
import type { BrandSettings } from '../brand/ports.js';
import type { BrandDocument, ConfigDocument, Settings } from './config-schema.js';
import { themesOf } from '../themes/theme.js';
import { DIGESTS_DEFAULTS } from '../digest/choices.js';
import { COMMENT_ANALYSIS_DEFAULTS } from '../themes/config.js';
import { maskedUrls } from '../chat/masked-url.js';

/**
 * A tenant's configuration as the admin API answers it: what the tenant file holds of it, without the signing
 * generations of its webhook endpoints (the secrets themselves are never stored), its chat endpoints' URLs masked.
 */
export function configDocument(name: string, settings: Settings, { whole = false }: { whole?: boolean } = {}): ConfigDocument {
  const { signing: _signing, ...delivery } = settings.delivery;
  const alerts = { scoreDrop: false, ...settings.alerts };
  // A chat endpoint's URL is a credential: answered masked (shared/chat/masked-url.ts), unless `whole` (to compare).
  if (alerts.chat && !whole) {
    const masks = maskedUrls(alerts.chat.map((endpoint) => endpoint.url));
    alerts.chat = alerts.chat.map((endpoint, i) => ({ ...endpoint, url: masks[i]! }));
  }
  return {
    name,
    classes: settings.classes,
    journeys: [...settings.journeys].sort((a, b) => a.id - b.id),
    groups: settings.groups,
    regions: settings.regions ?? [],
    delivery,
    privacy: settings.privacy ?? { retentionDays: null },
    cases: settings.cases ?? {},
    analytics: { ...ANALYTICS_DEFAULTS, ...settings.analytics },
    locale: settings.locale ?? DEFAULT_LOCALE,
    timeZone: timeZoneOf(settings),
    minAnswersToRank: settings.minAnswersToRank ?? DEFAULT_MIN_ANSWERS_TO_RANK,
    alerts,
    digests: { ...DIGESTS_DEFAULTS, ...settings.digests },
    brand: brandDocument(name, settings.brand),
    // What the analysis uses: the tenant's own, or the defaults (put back unchanged, they stay the defaults).
    themes: [...themesOf(settings)],
    commentAnalysis: { ...COMMENT_ANALYSIS_DEFAULTS, ...settings.commentAnalysis },
  };
}

/**
 * `cases.workingHours.timeZone` follows the tenant's zone unless set on its own: when a replacement moves the tenant's
 * zone and keeps the working hours in the zone it leaves (as read, or as a tenant file wrote the tenant's zone out), the
 * working hours name no zone of their own and follow the new one. A zone of their own (any other) stays.
 */
export function withWorkingHoursFollowing(before: Pick<Settings, 'timeZone'>, config: ConfigDocument): ConfigDocument {
  const left = timeZoneOf(before);
  const hours = config.cases?.workingHours;
  if (config.timeZone === left || hours?.timeZone !== left) return config;
  const { timeZone: _left, ...following } = hours;
  return { ...config, cases: { ...config.cases, workingHours: following } };
}

/** The brand as the admin API answers it: as stored, its display name the tenant's for a tenant made before brands. */
const brandDocument = (tenantName: string, brand: BrandSettings | undefined): BrandDocument => ({
  ...brand,
  name: brand?.name ?? tenantName,
});

/** The brand a replacement stores: a display name left out is the tenant's name (as `apply` resolves it). */
export const brandSettings = (tenantName: string, brand: BrandDocument): BrandSettings => ({ ...brand, name: brand.name ?? tenantName });

/**
 * What changed between two configurations, leaf by leaf. Lists of things with an id (journeys, classes, groups, regions) are
 * compared by id, webhooks by URL and themes by slug, so that adding a journey is one change, not a shift of every later one.
 */
export function configChanges(before: unknown, after: unknown, path = ''): ConfigChange[] {
  if (Array.isArray(before) && Array.isArray(after)) {
    const identity = identityOf(before, after);
    if (identity) {
      const keyOf = (item: unknown) => String((item as Record<string, unknown>)[identity]);
      const was = new Map(before.map((item) => [keyOf(item), item]));
      const is = new Map(after.map((item) => [keyOf(item), item]));
      const ids = [...new Set([...was.keys(), ...is.keys()])];
      return ids.flatMap((id) => configChanges(was.get(id), is.get(id), `${path}[${identity}=${id}]`));
    }
    return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path, old: before, new: after }];
  }
  if (isRecord(before) && isRecord(after)) {
    const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return fields.flatMap((field) => configChanges(before[field], after[field], path ? `${path}.${field}` : field));
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  return [{ path, old: before ?? null, new: after ?? null }];
}

/** A configuration's leaves and their paths, as `configChanges` names them. */
export function configLeaves(value: unknown, path = ''): [string, unknown][] {
  const identity = Array.isArray(value) ? identityOf(value, value) : undefined;
  if (Array.isArray(value) && identity)
    return value.flatMap((item: Record<string, unknown>) => configLeaves(item, `${path}[${identity}=${String(item[identity])}]`));
  if (isRecord(value)) return Object.entries(value).flatMap(([field, item]) => configLeaves(item, path ? `${path}.${field}` : field));
  return [[path, value]];
}

const isRecord = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

/** The field that identifies the items of a list, when every item of both has it: `id`, `url` (webhooks) or `slug` (themes). */
function identityOf(before: unknown[], after: unknown[]): string | undefined {
  const all = [...before, ...after];
  if (!all.length || !all.every(isRecord)) return undefined;
  return ['id', 'url', 'slug'].find((field) => all.every((item) => item[field] !== undefined));
}
