import type { Settings } from './config-schema.js';

/** Where a function reads a tenant's configuration: its version alone (small), and the whole with its version. */
export interface SettingsSource {
  version(tenantId: number): Promise<number>;
  read(tenantId: number): Promise<{ settings: Settings; version: number }>;
}

/**
 * A tenant's configuration, kept per process and checked on every call against the configuration's version: one
 * small strongly consistent read (1 read unit, made beside the request's own reads), and the whole configuration read
 * again only when the version moved. A change therefore takes effect on the next request of every function. Calls
 * made while a check is under way (a consumer's batch) share it; a failed read is not kept.
 */
export function versionedSettings(source: SettingsSource): (tenantId: number) => Promise<Settings> {
  const known = new Map<number, { settings: Settings; version: number }>();
  const checking = new Map<number, Promise<Settings>>();
  return (tenantId) => {
    const pending = checking.get(tenantId);
    if (pending) return pending;
    const check = (async () => {
      const version = await source.version(tenantId);
      const hit = known.get(tenantId);
      if (hit && hit.version === version) return hit.settings;
      const fresh = await source.read(tenantId);
      known.set(tenantId, fresh);
      return fresh.settings;
    })().finally(() => checking.delete(tenantId));
    checking.set(tenantId, check);
    return check;
  };
}
