import { ENV, requireEnvs } from '../../config.js';
import { storeLogo } from '../../tenants/logo.js';
import { brandForm } from '../../workspace/admin-brand-page.js';
import { logoStore } from '../logo-store.js';
import { replaceBrand } from './tenants.js';
import { brandPorts } from './workspace-admin-brand.js';

// The brand form writes the brand in the table and a new logo to the logo bucket: without either name, the cold start fails.
requireEnvs(ENV.tableName, ENV.logoBucket);

/**
 * The brand form's post. Until the admin API's brand service (issue 34, the `admin-config` part) is merged, the brand
 * is written by the tenant service's replaceBrand, and a logo is checked and stored as the operator's apply does.
 */
export const saveBrand = brandForm({ ...brandPorts, uploadLogo: (_tenantId, bytes) => storeLogo(bytes, logoStore), replaceBrand });
