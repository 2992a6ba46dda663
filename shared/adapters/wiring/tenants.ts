import { chatStatus as chatAdminReads } from '../chat-deliveries.js';
import { configured, ENV, requireEnvs, wire } from '../../config.js';
import * as settings from '../../tenants/settings.js';
import * as configuration from '../../tenants/config-service.js';
import * as tenants from '../../tenants/service.js';
import * as configForm from '../../workspace/admin-config-form.js';
import * as general from '../../workspace/admin-general-page.js';
import * as adminForm from '../../workspace/admin-form.js';
import * as journeys from '../../workspace/admin-journeys-page.js';
import * as regions from '../../workspace/admin-regions-page.js';
import * as webhooks from '../../workspace/admin-webhooks-page.js';
import { auditLog } from '../audit-log.js';
import { sealer } from '../../sealed.js';
import { spendShownOnce } from '../shown-once.js';
import { signingSecret } from '../../events/webhook-signing.js';
import { eventEndpoint } from '../../events/signature.js';
import { readConfigVersion } from '../config-version.js';
import { readSettings, readVersionedSettings } from '../settings-repository.js';
import { scheduleFirstRun } from '../../digest/sending.js';
import { firstDigestTimer } from './timers.js';
import { insertTenant } from '../tenant-creation.js';
import { claimConfigVersion, getTenant, raiseConfigVersion, tenantRepository, writeConfig } from '../tenant-repository.js';
import { findLogo } from '../brand-repository.js';
import { storeChoices } from '../store-repository.js';

/**
 * A tenant's journeys, classes, groups and delivery settings, kept per process while their version holds: what almost
 * every function reads, and nothing of the administration below.
 */
export const tenantSettings = /* @__PURE__ */ wire(() =>
  settings.versionedSettings({ version: readConfigVersion, read: readVersionedSettings }),
);

/**
 * A secret an admin page shows once (a new API key, a user's token, a new webhook endpoint's signing secret), sealed
 * with the deployment's cursor secret under a key of its own purpose (its functions read the secret at cold start),
 * and spent once shown.
 */
export const shownOnce = /* @__PURE__ */ wire(() => ({
  sealer: sealer(configured(ENV.cursorSecret), 'shown-once/v1'),
  spend: spendShownOnce,
}));

/** The tenant's configuration as GET and PUT /public/admin/config and the admin pages read and replace it, audited. */
export const configService = /* @__PURE__ */ wire(() => {
  // The configuration routes and pages read and write the tenant's configuration in the table.
  requireEnvs(ENV.tableName);
  return configuration.configService(
    // Only what the service calls, named: the bundle then drops the rest of the repositories (keys, users, signing).
    { getTenant, readVersionedSettings, claimConfigVersion, raiseConfigVersion, writeConfig, findLogo },
    auditLog,
  );
});

/** The tenant's admin changes, newest first (GET /public/admin/audit). */
export const auditEntries = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return auditLog.list;
});

/** `/app/admin` alone: the first admin page the user may open. */
export const openAdmin = /* @__PURE__ */ wire(
  () => (request: adminForm.AdminPageRequest) => adminForm.openAdmin({ settings: tenantSettings }, request),
);

/** The tenant admins' general page (name, language, time zone) and its form's post, over the configuration service. */
export const adminGeneralPage = /* @__PURE__ */ wire(() =>
  general.adminGeneralPage({
    readConfig: configService.readConfig,
    replaceConfig: configService.replaceConfig,
    settings: tenantSettings,
  }),
);
export const adminGeneralForm = /* @__PURE__ */ wire(() =>
  general.adminGeneralForm(
    { readConfig: configService.readConfig, replaceConfig: configService.replaceConfig, settings: tenantSettings },
    configForm.changeConfig,
  ),
);

/** The tenant admins' journeys page and its form's post, over the configuration service, checked by the tenant file's schema. */
export const adminJourneysPage = /* @__PURE__ */ wire(() =>
  journeys.adminJourneysPage({
    readConfig: configService.readConfig,
    replaceConfig: configService.replaceConfig,
    settings: tenantSettings,
  }),
);
export const adminJourneysForm = /* @__PURE__ */ wire(() =>
  journeys.adminJourneysForm(
    { readConfig: configService.readConfig, replaceConfig: configService.replaceConfig, settings: tenantSettings },
    configForm.changeConfig,
  ),
);

/** The tenant admins' regions page and its form's post, over the configuration service, checked by the tenant file's schema. */
const regionPorts = () => ({
  readConfig: configService.readConfig,
  replaceConfig: configService.replaceConfig,
  settings: tenantSettings,
  storeChoices: (tenantId: number, most: number) => storeChoices(tenantId, 'all', most),
});
export const adminRegionsPage = /* @__PURE__ */ wire(() => regions.adminRegionsPage(regionPorts()));
export const adminRegionsForm = /* @__PURE__ */ wire(() => regions.adminRegionsForm(regionPorts(), configForm.changeConfig));

/** What the webhooks page shows of the chat endpoints: each one's health, and the last failed deliveries. */
const chatStatus = async (tenantId: number) => {
  // Masked among the tenant's endpoints' URLs, as the configuration the page shows reads them.
  const urls = ((await tenantSettings(tenantId)).alerts?.chat ?? []).map((endpoint) => endpoint.url);
  const [health, failed] = await Promise.all([chatAdminReads.health(tenantId, urls), chatAdminReads.failed(tenantId, 10, urls)]);
  return { health, failed };
};

/**
 * The tenant admins' event endpoints page and its form's post, over the configuration service; a new endpoint's
 * signing secret (derived from the survey secret, which the post reads at cold start) shown once, sealed.
 */
export const adminWebhooksPage = /* @__PURE__ */ wire(() =>
  webhooks.adminWebhooksPage({
    readConfig: configService.readConfig,
    replaceConfig: configService.replaceConfig,
    settings: tenantSettings,
    shownOnce,
    chatStatus,
  }),
);
export const adminWebhooksForm = /* @__PURE__ */ wire(() =>
  webhooks.adminWebhooksForm(
    {
      readConfig: configService.readConfig,
      replaceConfig: configService.replaceConfig,
      settings: tenantSettings,
      shownOnce,
      chatStatus,
      signingSecret: (tenantId, url) => signingSecret(() => process.env[ENV.surveySecret])(tenantId, eventEndpoint(url), 1),
    },
    configForm.changeConfig,
  ),
);

/** The operator's tenant service (infra/admin.ts, infra/apply-tenant.ts, the tests): every repository, the tenant's creation. */
export const tenantService = /* @__PURE__ */ wire(() =>
  tenants.tenantService(
    { ...tenantRepository, insertTenant },
    {
      surveySecret: () => process.env[ENV.surveySecret],
      surveySecretName: ENV.surveySecret,
      audit: auditLog,
      scheduleDigests: async (tenantId) =>
        scheduleFirstRun({ timer: firstDigestTimer }, tenantId, { settings: await readSettings(tenantId), now: new Date() }),
    },
  ),
);
