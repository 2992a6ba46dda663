import { readConfigVersion } from '../config-version.js';
import { readVersionedSettings } from '../settings-repository.js';
import { versionedSettings } from '../../tenants/settings.js';

/**
 * A tenant's journeys, classes, groups and delivery settings, kept per process while their version holds. In a module
 * of its own: the functions that only read settings (the survey pages, the cases, the consumers) then bundle neither
 * the tenant administration (tenants/service.ts) nor the repository's writes, which wiring/tenants.ts constructs.
 */
export const tenantSettings = versionedSettings({ version: readConfigVersion, read: readVersionedSettings });
