import { ENV, requireEnvs } from '../../config.js';
import { brandPage } from '../../workspace/admin-brand-page.js';
import { readVersionedSettings } from '../tenant-repository.js';
import { tenantSettings } from './tenants.js';

// The brand page reads the tenant's brand in the table.
requireEnvs(ENV.tableName);

const readBrand = async (tenantId: number) => {
  const { settings, version } = await readVersionedSettings(tenantId);
  return { brand: settings.brand, version };
};

/** The tenant admins' brand page (its form's post, which stores logos, is wired in workspace-admin-brand-form.ts). */
export const showBrand = brandPage({ settings: tenantSettings, readBrand });
export const brandPorts = { settings: tenantSettings, readBrand };
