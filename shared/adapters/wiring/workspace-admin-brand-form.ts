import { readConfig, replaceConfig } from './tenant-config.js';
import { uploadLogo } from './tenant-logos.js';
import { brandForm } from '../../workspace/admin-brand-form.js';
import { brandPorts } from './workspace-admin-brand.js';

/**
 * The brand form's post over the admin API's services: the logo uploaded as POST /public/admin/brand/logos does
 * (checked, stored, recorded as the tenant's, audited), and the brand written into the configuration as PUT
 * /public/admin/config does, at the version the form was read at (audited as `brand.<field>`).
 */
export const saveBrand = brandForm({
  ...brandPorts,
  uploadLogo,
  replaceBrand: async (tenantId, expected, brand, actor) => {
    const { config } = await readConfig(tenantId);
    return replaceConfig(tenantId, expected, { ...config, brand }, actor);
  },
});
