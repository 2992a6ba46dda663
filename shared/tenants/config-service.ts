import { randomBytes } from 'node:crypto';
import { NotFoundError, PreconditionFailedError, ValidationError } from '../errors.js';
import type { AuditActor, AuditEntry, AuditLog, ConfigChange } from '../audit/log.js';
import type { ConfigDocument, LogoObject, Settings } from './config-schema.js';
import { brandSettings, configChanges, configDocument, withWorkingHoursFollowing } from './configuration.js';
import type { TenantRepository } from './ports.js';
import { unmaskedUrl, withMaskedUrls } from '../chat/masked-url.js';

/** Records an admin change, unless it changed nothing. */
export async function recordedChange({
  audit,
  tenantId,
  actor,
  action,
  changes,
}: {
  audit: AuditLog;
  tenantId: number;
  actor: AuditActor;
  action: AuditEntry['action'];
  changes: ConfigChange[];
}): Promise<void> {
  if (!changes.length) return;
  await audit.record(tenantId, { id: randomBytes(6).toString('hex'), at: new Date().toISOString(), actor, action, changes });
}

/**
 * A tenant's configuration as the admin API reads and replaces it (GET and PUT /public/admin/config, the admin pages):
 * apart from the rest of the tenant service (tenants, keys, users, the operator's apply), which these never call.
 */
/** What the configuration service reads and writes of the tenant repository. */
export type ConfigRepository = Pick<
  TenantRepository,
  'getTenant' | 'readVersionedSettings' | 'claimConfigVersion' | 'raiseConfigVersion' | 'writeConfig' | 'findLogo'
>;

export function configService(tenants: ConfigRepository, audit: AuditLog) {
  /** The tenant's name and settings, with the version they were read at (strongly). */
  async function readStored(tenantId: number): Promise<{ name: string; settings: Settings; version: number }> {
    const [tenant, { settings, version }] = await Promise.all([tenants.getTenant(tenantId), tenants.readVersionedSettings(tenantId)]);
    if (!tenant) throw new NotFoundError('No such tenant.');
    return { name: tenant.name, settings, version };
  }

  /** The tenant's configuration as the admin API answers it, and its version (the ETag). */
  async function readConfig(tenantId: number): Promise<{ config: ConfigDocument; version: number }> {
    const { name, settings, version } = await readStored(tenantId);
    return { config: configDocument(name, settings), version };
  }

  /**
   * Replaces the tenant's configuration if it is still at version `expected` (the caller's If-Match), and answers the
   * new version and what changed. The version is claimed first (one conditional update), so of two replacements made
   * from the same read exactly one is written; it is raised once everything is written (by one: the ETag of one
   * replacement moves by one), so that a function that read the configuration midway reads it again.
   */
  async function replaceConfig(
    tenantId: number,
    { expected, config: asked, actor }: { expected: number | 'current'; config: ConfigDocument; actor: AuditActor },
  ): Promise<{ version: number; changes: ConfigChange[]; newEndpoints: string[] }> {
    const stored = await readStored(tenantId);
    // A chat endpoint read masked and put back names the stored one; what changed is recorded and answered masked.
    let config = withWorkingHoursFollowing(stored.settings, asked);
    const storedUrls = (stored.settings.alerts?.chat ?? []).map((endpoint) => endpoint.url);
    if (config.alerts?.chat)
      config = {
        ...config,
        alerts: {
          ...config.alerts,
          chat: config.alerts.chat.map((endpoint) => ({ ...endpoint, url: unmaskedUrl(endpoint.url, storedUrls) })),
        },
      };
    const given = (config.alerts?.chat ?? []).map((endpoint) => endpoint.url);
    const twice = given.findIndex((url, i) => given.indexOf(url) < i);
    if (twice >= 0)
      throw new ValidationError('Invalid configuration.', [
        { path: `alerts.chat.${twice}`, message: 'lists a URL twice (an endpoint is known by its URL)' },
      ]);
    const before = { config: configDocument(stored.name, stored.settings, { whole: true }), version: stored.version };
    const version = expected === 'current' ? before.version : expected;
    const brand = brandSettings(config.name, config.brand);
    await checkLogo(tenantId, brand.logo, before.config.brand.logo);
    const changed = () =>
      new PreconditionFailedError('The configuration changed since it was read: read it again (GET) and apply your change to it.');
    if (before.version !== version) throw changed();
    const urls = [...storedUrls, ...(config.alerts?.chat ?? []).map((endpoint) => endpoint.url)];
    const changes = withMaskedUrls(configChanges(before.config, configDocument(config.name, { ...config, brand }, { whole: true })), urls);
    // The same configuration again writes nothing: its version (the ETag) stays, and no function reads it again.
    if (!changes.length) return { version, changes, newEndpoints: [] };
    // The claim also holds off another replacement made from a read of this one half written (its version is the claim's).
    // A new name is written in the claim's transaction, not in a call of its own.
    const claimed = await tenants.claimConfigVersion(tenantId, version, stored.name !== config.name ? config.name : undefined);
    if (claimed === undefined) throw changed();
    let written: number;
    let newEndpoints: string[];
    try {
      // What to delete is what the read found (strongly): a replacement or admin page that wrote since raised the version,
      // and the claim, conditioned on the version read, failed. (The operator's apply raises it after it writes: an
      // apply at the same time mixes with this replacement, as it did when a second read found what to delete.)
      // A webhook endpoint listed for the first time gets its signing secret: named, so that its page shows it once.
      ({ newEndpoints } = await tenants.writeConfig(tenantId, {
        settings: config,
        delivery: config.delivery,
        brand,
        stored: stored.settings,
        themesChanged: changes.some(({ path }) => /^themes\b/.test(path)),
        signed: Object.keys(stored.settings.delivery.signing ?? {}),
      }));
    } finally {
      written = (await tenants.raiseConfigVersion(tenantId, { writing: 'release', from: claimed }))!;
    }
    await recordedChange({ audit, tenantId, actor, action: 'config.replace', changes });
    return { version: written, changes, newEndpoints };
  }

  /**
   * A brand may name its current logo or one the tenant uploaded (POST /public/admin/brand/logos), as that route
   * answered it: a logo named by hand would show a broken image to every customer.
   */
  async function checkLogo(tenantId: number, logo: LogoObject | undefined, current: LogoObject | undefined): Promise<void> {
    if (!logo || (logo.file === current?.file && logo.contentType === current.contentType)) return;
    const uploaded = await tenants.findLogo(tenantId, logo.file);
    if (uploaded?.contentType !== logo.contentType)
      throw new ValidationError('The brand names a logo this tenant did not upload.', [
        {
          path: 'brand.logo',
          message: 'is not a logo of this tenant: upload it with POST /public/admin/brand/logos and give the object it answers',
        },
      ]);
  }

  return { readConfig, replaceConfig };
}
