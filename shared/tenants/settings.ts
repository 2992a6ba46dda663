import * as v from 'valibot';
import { readSettings } from '../adapters/tenant-repository.js';
import { TABLE } from '../table.js';
import { ClassConfig, DeliveryConfig, Group, JourneyConfig, type Settings } from './config-schema.js';

export type { Settings };

/** How long a Lambda keeps a tenant's journeys and classes before reading them again. */
export const SETTINGS_CACHE_SECONDS = 60;

const JourneyItem = v.object(JourneyConfig.entries);
const ClassItem = v.object(ClassConfig.entries);
const DeliveryItem = v.object({ ...DeliveryConfig.entries, webhookSecretVersion: v.optional(v.number()) });

const cache = new Map<number, { settings: Promise<Settings>; expires: number }>();

/** A tenant's configuration, read in one Query and cached for SETTINGS_CACHE_SECONDS. */
export function tenantSettings(tenantId: number): Promise<Settings> {
  const hit = cache.get(tenantId);
  if (hit && hit.expires > Date.now()) return hit.settings;
  const settings = readSettings(tenantId).then((items) => {
    const of = (kind: string) => items.filter((item) => item[TABLE.entityAttribute] === kind);
    return {
      journeys: of('JOURNEY').map((item) => v.parse(JourneyItem, item)),
      classes: of('CLASS').map((item) => v.parse(ClassItem, item)),
      groups: of('GROUP').map((item) => v.parse(Group, item)),
      delivery: v.parse(DeliveryItem, of('DELIVERY')[0] ?? {}),
    };
  });
  settings.catch(() => cache.delete(tenantId));
  cache.set(tenantId, { settings, expires: Date.now() + SETTINGS_CACHE_SECONDS * 1000 });
  return settings;
}
