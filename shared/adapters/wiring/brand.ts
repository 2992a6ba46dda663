import { ENV, requireEnvs, wire } from '../../config.js';
import * as logos from '../../brand/logo.js';
import * as page from '../../workspace/admin-brand-page.js';
import * as form from '../../workspace/admin-brand-form.js';
import { auditLog } from '../audit-log.js';
import { recordLogo } from '../brand-repository.js';
import { logoStore } from '../logo-store.js';
import { configService, tenantSettings } from './tenants.js';

/** A stored logo by its object name, or undefined (GET /brand/logos/{file}, from the logo bucket). */
export const getLogo = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.logoBucket);
  return (file: string) => logos.readLogo(file, logoStore);
});

/** A tenant's logo uploads (shared/brand/logo.ts): checked, stored in the logo bucket, recorded as the tenant's. */
export const tenantLogos = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName, ENV.logoBucket);
  return logos.tenantLogos(logoStore, { recordLogo }, auditLog);
});

/** The tenant admins' brand page: the brand as the configuration has it, and the version it was read at. */
export const brandPage = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return page.brandPage({ settings: tenantSettings, readBrand: page.readBrandOf(configService) });
});

/**
 * The brand form's post over the admin API's services: the logo uploaded as POST /public/admin/brand/logos does
 * (checked, stored, recorded as the tenant's, audited), and the brand written into the configuration as PUT
 * /public/admin/config does, at the version the form was read at (audited as `brand.<field>`).
 */
export const brandForm = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return form.brandForm({
    settings: tenantSettings,
    readBrand: page.readBrandOf(configService),
    uploadLogo: tenantLogos.uploadLogo,
    replaceBrand: form.replaceBrandOf(configService),
  });
});
