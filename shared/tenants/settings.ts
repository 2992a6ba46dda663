import type { Settings } from './config-schema.js';

/** How long a Lambda keeps a tenant's journeys and classes before reading them again. */
export const SETTINGS_CACHE_SECONDS = 60;

/** A tenant's configuration, read by `read` at most once per SETTINGS_CACHE_SECONDS; a failed read is not kept. */
export function cachedSettings(read: (tenantId: number) => Promise<Settings>): (tenantId: number) => Promise<Settings> {
  const cache = new Map<number, { settings: Promise<Settings>; expires: number }>();
  return (tenantId) => {
    const hit = cache.get(tenantId);
    if (hit && hit.expires > Date.now()) return hit.settings;
    const settings = read(tenantId);
    settings.catch(() => cache.delete(tenantId));
    cache.set(tenantId, { settings, expires: Date.now() + SETTINGS_CACHE_SECONDS * 1000 });
    return settings;
  };
}
