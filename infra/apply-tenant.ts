import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TenantConfig } from '../shared/tenants/config-schema.js';
import { logoObjectOf, storeLogo } from '../shared/brand/logo.js';
import { logoStore } from '../shared/adapters/logo-store.js';
import { tenantService } from '../shared/adapters/wiring/tenants.js';
import { scoreDropRuns } from '../shared/adapters/wiring/results.js';

/**
 * Applies one tenant of a tenant file (`npm run admin -- apply`, and the local stack's demo tenants): its brand's logo,
 * a path relative to the file's directory `baseDir`, is read, checked (logo.ts: type by its bytes, at most 200 KB) and
 * stored in the logo bucket first, so that the brand never names an object that is not there.
 */
export async function applyTenantFile(config: TenantConfig, baseDir: string): Promise<string[]> {
  const logo = config.brand.logo ? await storeLogo(readLogoFile(resolve(baseDir, config.brand.logo)), logoStore) : undefined;
  const lines = await tenantService.applyTenantConfig(config, logo ? { logo } : {});
  // A tenant file with the score-drop alert on starts its daily check, as PUT /public/admin/config does (on AWS, with
  // SCORE_DROP_QUEUE_URL set: the ScoreDropQueue's URL).
  if (config.alerts?.scoreDrop) await scoreDropRuns.applied(config.id);
  return lines;
}

/** What applying one tenant of a tenant file would change (nothing is written; the logo is read and checked, not stored). */
export async function planTenantFile(config: TenantConfig, baseDir: string): Promise<string[]> {
  const logo = config.brand.logo ? logoObjectOf(readLogoFile(resolve(baseDir, config.brand.logo))) : undefined;
  return tenantService.planTenantConfig(config, logo ? { logo } : {});
}

function readLogoFile(path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new Error(`The logo file ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
}
