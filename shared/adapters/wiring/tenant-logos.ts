import { ENV, requireEnvs } from '../../config.js';
import { tenantLogos } from '../../tenants/logo.js';
import { auditLog } from '../audit-log.js';
import { logoStore } from '../logo-store.js';
import { recordLogo } from '../tenant-repository.js';

// The logo upload writes the logo bucket and records the upload in the table: without either name, the cold start fails.
requireEnvs(ENV.tableName, ENV.logoBucket);

/** A tenant's logo uploads (shared/tenants/logo.ts): checked, stored in the logo bucket, recorded as the tenant's. */
export const { uploadLogo } = tenantLogos(logoStore, { recordLogo }, auditLog);
