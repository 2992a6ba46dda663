import { ENV, requireEnvs } from '../../config.js';
import { brandPage } from '../../workspace/admin-brand-page.js';
import { readConfig } from './tenant-config.js';
import { tenantSettings } from './tenant-settings.js';

// The brand page reads the tenant's configuration in the table.
requireEnvs(ENV.tableName);

/** The brand as the admin API's configuration has it (its display name resolved), and the version it was read at. */
const readBrand = async (tenantId: number) => {
  const { config, version } = await readConfig(tenantId);
  return { brand: { ...config.brand, name: config.brand.name ?? config.name }, version };
};

/** The tenant admins' brand page (its form's post, which uploads logos, is wired in workspace-admin-brand-form.ts). */
export const showBrand = brandPage({ settings: tenantSettings, readBrand });
export const brandPorts = { settings: tenantSettings, readBrand };
