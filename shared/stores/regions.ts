import type { AuditActor } from '../audit/log.js';
import { PreconditionFailedError } from '../errors.js';
import { requireRegion, withStoreIn, type RegionConfig } from '../regions.js';

/** A store's region as the stores API sets it (`region` on create and update): none (null) or one of the configuration's. */
export interface StoreRegions {
  /** Throws (422 on `region`) when the configuration has no such region. */
  check(tenantId: number, region: number): Promise<void>;
  place(tenantId: number, placing: { storeId: number; region: number | null; actor: AuditActor }): Promise<void>;
}

/**
 * What placing reads and writes: the configuration (`C`: the tenant's configuration document, of which placing reads
 * and changes the regions only), as PUT /public/admin/config replaces it (validated, audited).
 */
export interface ConfigAccess<C extends { regions: RegionConfig[] }> {
  readConfig(tenantId: number): Promise<{ config: C; version: number }>;
  replaceConfig(tenantId: number, change: { expected: number; config: C; actor: AuditActor }): Promise<unknown>;
}

/** Attempts at a placement when another change to the configuration lands between its read and its write. */
const ATTEMPTS = 3;

/** A store placed in a region by replacing the configuration's regions, as an admin would with the API or the page. */
export function storeRegions<C extends { regions: RegionConfig[] }>(config: ConfigAccess<C>): StoreRegions {
  return {
    async check(tenantId, region) {
      requireRegion((await config.readConfig(tenantId)).config.regions, region);
    },
    async place(tenantId, { storeId, region, actor }) {
      for (let attempt = 1; ; attempt++) {
        const { config: current, version } = await config.readConfig(tenantId);
        const regions = withStoreIn(current.regions, storeId, region);
        try {
          await config.replaceConfig(tenantId, { expected: version, config: { ...current, regions }, actor });
          return;
        } catch (error) {
          if (!(error instanceof PreconditionFailedError) || attempt === ATTEMPTS) throw error;
        }
      }
    },
  };
}
