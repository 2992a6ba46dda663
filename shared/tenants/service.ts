import { randomBytes } from 'node:crypto';
import { tenantAccess } from '../access/tenant-access.js';
import type { FirstStore, Tenant, TenantCreation, TenantRepository } from './ports.js';
import type { UserRecord, UserRole } from '../access/ports.js';
import type { LogoObject, TenantConfig, UserScope } from './config-schema.js';
import { configChanges, configDocument } from './configuration.js';
import { configFingerprint, configPlan } from './apply-plan.js';
import { configService, recordedChange } from './config-service.js';
import type { AuditActor, AuditEntry, AuditLog, ConfigChange } from '../audit/log.js';
import { signingSecret, webhookEndpoints, webhookRotation } from '../events/webhook-signing.js';
import { hashSecret, KEY_PREFIXES, newSecret, type KeyScope } from '../access/credentials.js';

export type { Tenant, UserRecord };

export interface IssuedKey {
  key: string;
  keyId: string;
  tenantId: number;
  scope: KeyScope;
}

export interface IssuedUser {
  name: string;
  token: string;
  scope: UserScope;
}

/**
 * Tenants, their API keys, users and configuration. `surveySecret` answers the deployment's survey secret when the
 * caller has it (the admin CLI with it set, the rotate route once it read it), from which a webhook endpoint's signing
 * secret derives, so that a new one can be shown once; `surveySecretName` names where that secret comes from.
 */
export function tenantService(
  tenants: TenantRepository & TenantCreation,
  {
    surveySecret,
    surveySecretName,
    audit,
    scheduleDigests,
  }: {
    /** Read when a secret is derived, not at load: a function reads its secrets after its modules load. */
    surveySecret: () => string | undefined;
    surveySecretName: string;
    /** Where admin changes are recorded (who, when, what changed). */
    audit: AuditLog;
    /** Parks the tenant's first scheduled digest run (shared/digest/sending.ts); parking it again is the same timer. */
    scheduleDigests: (tenantId: number) => Promise<void>;
  },
) {
  const { readConfig, replaceConfig } = configService(tenants, audit);
  const recordChange = (
    tenantId: number,
    { actor, action, changes }: { actor: AuditActor; action: AuditEntry['action']; changes: ConfigChange[] },
  ) => recordedChange({ audit, tenantId, actor, action, changes });

  const derivedSecret = signingSecret(surveySecret);
  const { rotateWebhookSecret } = webhookRotation(tenants, { surveySecret, surveySecretName, audit });

  const { authorizeKey, resolveUser } = tenantAccess(tenants);
  const insertTenant = (name: string, { store, employee }: { store: string; employee?: string | undefined }, id?: number) =>
    tenants.insertTenant(name, { store, employee: employee ?? store } satisfies FirstStore, id);

  /**
   * A new tenant, its first store named `store` and its first employee `employee` (the store's name when absent), and
   * its digests' schedule.
   */
  async function createTenant(name: string, first: { store: string; employee?: string | undefined }, id?: number): Promise<Tenant> {
    const tenant = await insertTenant(name, first, id);
    await scheduleDigests(tenant.id);
    return tenant;
  }

  /** Issues an API key. The clear value is returned once and never stored; `value` is for fixed local demo keys. */
  async function issueApiKey(
    tenantId: number,
    { scope, value = newSecret(KEY_PREFIXES[scope]), expiresAt = null }: { scope: KeyScope; value?: string; expiresAt?: string | null },
  ): Promise<IssuedKey> {
    if (!(await tenants.getTenant(tenantId))) throw new Error(`Tenant ${tenantId} does not exist.`);
    const { keyId, created } = await storeKey(tenantId, { scope, value, expiresAt });
    if (!created) throw new Error('That key value is already in use.');
    // Every change of a key raises the version once the key is written (shared/access/api-keys.ts says why).
    await tenants.raiseConfigVersion(tenantId);
    return { key: value, keyId, tenantId, scope };
  }

  async function storeKey(
    tenantId: number,
    { scope, value, expiresAt = null }: { scope: KeyScope; value: string; expiresAt?: string | null },
  ): Promise<{ keyId: string; created: boolean }> {
    const keyId = randomBytes(6).toString('hex');
    const record = { tenantId, scope, keyId, created_at: new Date().toISOString(), revoked_at: null, expires_at: expiresAt };
    return { keyId, created: await tenants.insertApiKey(hashSecret(value), record) };
  }

  /**
   * Creates (or replaces, by name) a user; the clear token is returned once. A replaced user keeps its role unless one
   * is given: inviting a tenant admin to the workspace re-issues its token, not its role.
   */
  async function createUser(
    tenantId: number,
    {
      name,
      scope,
      token = newSecret('sut'),
      role,
      phone,
    }: { name: string; scope: UserScope; token?: string; role?: UserRole; phone?: string },
  ): Promise<IssuedUser> {
    const existing = await tenants.findUserByName(tenantId, name);
    const tokenHash = hashSecret(token);
    if (existing && existing.tokenHash !== tokenHash) await tenants.deleteUser(tenantId, existing.tokenHash);
    const kept = role ?? existing?.role;
    const keptPhone = phone ?? existing?.phone;
    await tenants.putUser(tenantId, {
      name,
      scope,
      tokenHash,
      created_at: existing?.created_at ?? new Date().toISOString(),
      ...(kept ? { role: kept } : {}),
      ...(keptPhone ? { phone: keptPhone } : {}),
    });
    return { name, token, scope };
  }

  /**
   * Writes the tenant's delivery settings. Each webhook endpoint gets a signing secret of its own the first time it
   * is listed: derived from the deployment's survey secret (never stored), shown here once when that secret is in the
   * environment.
   */
  async function applyDelivery(config: TenantConfig): Promise<string[]> {
    const { newEndpoints } = await tenants.putDelivery(config.id, config.delivery);
    const report = [`  delivery: ${Object.keys(config.delivery).join(', ') || 'none'}`];
    for (const [endpoint, label] of webhookEndpoints(config.delivery)) {
      if (!newEndpoints.includes(endpoint)) continue;
      const secret = derivedSecret(config.id, endpoint, 1);
      report.push(
        secret
          ? `  ${label} signing secret (shown once): ${secret}`
          : `  ${label} signing secret: not shown (${surveySecretName} is not set); with it set to the stack's survey secret, ` +
              `get one with rotate-webhook-secret --overlap-hours 0`,
      );
    }
    return report;
  }

  /**
   * Brings a tenant to what its file declares: creates it (with its `firstStore`) if missing, writes its journeys,
   * classes, groups and brand, and creates or updates its users (by name) and keys. `logo` is the brand's logo object,
   * already checked and stored by the caller (logo.ts), which read the file the brand names. Returns what a person
   * needs to see: generated tokens are shown here once.
   */
  async function applyTenantConfig(config: TenantConfig, { logo }: { logo?: LogoObject | undefined } = {}): Promise<string[]> {
    const report: string[] = [];
    const existing = await tenants.getTenant(config.id);
    const before = existing ? (await readConfig(config.id)).config : undefined;
    if (existing) {
      if (existing.name !== config.name) await tenants.renameTenant(config.id, config.name);
      report.push(`tenant ${config.id} "${config.name}": updated`);
    } else {
      if (!config.firstStore)
        throw new Error(`Tenant ${config.id} does not exist yet: give its firstStore ({ "store": "<name customers know it by>" }).`);
      await insertTenant(config.name, config.firstStore, config.id);
      report.push(`tenant ${config.id} "${config.name}": created with store 1 "${config.firstStore.store}" and its employee 1`);
    }
    await tenants.putSettings(config.id, config);
    // The file names the logo by its path; only the object the caller stored (apply-tenant.ts) goes in the brand.
    const { logo: _path, ...brand } = config.brand;
    await tenants.putBrand(config.id, { ...brand, name: brand.name ?? config.name, ...(logo ? { logo } : {}) });
    // The tenant's own logo from then on: its admin may name it again after choosing another.
    if (logo) await tenants.recordLogo(config.id, logo);
    report.push(
      `  brand: "${brand.name ?? config.name}"${brand.colour ? `, colour ${brand.colour}` : ''}${logo ? `, logo ${logo.file}` : ''}`,
    );
    report.push(`  ${config.journeys.length} journeys, ${config.classes.length} classes, ${config.groups.length} groups written`);
    report.push(`  retention: ${config.privacy.retentionDays ? `${config.privacy.retentionDays} days` : 'none'}`);
    report.push(`  language: ${config.locale}, time zone: ${config.timeZone}`);
    report.push(...(await applyDelivery(config)));
    for (const user of config.users) {
      const current = await tenants.findUserByName(config.id, user.name);
      if (current && (!user.token || current.tokenHash === hashSecret(user.token))) {
        const same = current.role === user.role && current.phone === user.phone;
        if (same) await tenants.updateUserScope(config.id, current.tokenHash, user.scope);
        else {
          // The file is the whole truth of a user: a phone it no longer lists is removed.
          const { role: _role, phone: _phone, ...manager } = current;
          await tenants.putUser(config.id, {
            ...manager,
            scope: user.scope,
            ...(user.role ? { role: user.role } : {}),
            ...(user.phone ? { phone: user.phone } : {}),
          });
        }
        // The report names what changed, never the phone itself.
        const changed = ['scope', ...(current.role === user.role ? [] : ['role']), ...(current.phone === user.phone ? [] : ['phone'])];
        report.push(`  user "${user.name}": ${changed.join(' and ')} updated`);
      } else {
        const issued = await createUser(config.id, user);
        report.push(`  user "${user.name}": created${user.token ? '' : `, token (shown once): ${issued.token}`}`);
      }
    }
    for (const key of config.keys) {
      const { created } = await storeKey(config.id, { scope: key.scope, value: key.value });
      if (!created && (await tenants.findApiKey(hashSecret(key.value)))?.tenantId !== config.id) {
        throw new Error(`A ${key.scope} key of tenant ${config.id} is already used by another tenant.`);
      }
      report.push(`  ${key.scope} key: ${created ? 'stored' : 'already present'}`);
    }
    await tenants.raiseConfigVersion(config.id);
    // Once the file's time zone is written: a new tenant's first run, or an existing one's next (the same timer).
    await scheduleDigests(config.id);
    const after = (await readConfig(config.id)).config;
    await tenants.putApplied(config.id, configFingerprint(after));
    await recordChange(config.id, { actor: { operator: true }, action: 'config.apply', changes: configChanges(before ?? {}, after) });
    return report;
  }

  /**
   * What `applyTenantConfig` would change, field by field, writing nothing: old -> new for the configuration (each field
   * changed on the admin pages or through the API since the last apply named as such), and for users and keys whether
   * they are new, their scope and role, and whether their secrets and phones change (never their values).
   */
  async function planTenantConfig(config: TenantConfig, { logo }: { logo?: LogoObject | undefined } = {}): Promise<string[]> {
    const existing = await tenants.getTenant(config.id);
    const [current, applied] = existing
      ? await Promise.all([readConfig(config.id).then((read) => read.config), tenants.readApplied(config.id)])
      : [undefined, undefined];
    const { logo: _path, ...brand } = config.brand;
    // Apply writes the journeys, classes, groups and regions the file lists and leaves the others.
    const kept = <T extends { id: number }>(listed: T[], stored: T[] = []) => [
      ...listed,
      ...stored.filter((item) => !listed.some((other) => other.id === item.id)),
    ];
    const planned = configDocument(config.name, {
      ...config,
      journeys: kept(config.journeys, current?.journeys),
      classes: kept(config.classes, current?.classes),
      groups: kept(config.groups, current?.groups),
      regions: kept(config.regions, current?.regions),
      // Themes the file lists replace the stored ones; a file that lists none leaves them.
      themes: config.themes ?? current?.themes,
      brand: { ...brand, name: brand.name ?? config.name, ...(logo ? { logo } : {}) },
    });
    const lines = [
      `tenant ${config.id} "${config.name}": ${existing ? 'exists' : 'to be created'}`,
      ...configPlan(current, planned, applied),
    ];
    for (const user of config.users) {
      const found = existing && (await tenants.findUserByName(config.id, user.name));
      if (!found) {
        lines.push(`  user "${user.name}": new`);
        continue;
      }
      const changes = [
        ...(JSON.stringify(found.scope) === JSON.stringify(user.scope)
          ? []
          : [`scope ${JSON.stringify(found.scope)} -> ${JSON.stringify(user.scope)}`]),
        ...(found.role === user.role ? [] : [`role ${found.role ?? '(none)'} -> ${user.role ?? '(none)'}`]),
        ...(found.phone === user.phone ? [] : ['phone changed']),
        ...(user.token && found.tokenHash !== hashSecret(user.token) ? ['token changed'] : []),
      ];
      if (changes.length) lines.push(`  user "${user.name}": ${changes.join(', ')}`);
    }
    for (const key of config.keys) {
      const stored = (await tenants.findApiKey(hashSecret(key.value)))?.tenantId === config.id;
      if (!stored) lines.push(`  ${key.scope} key: new`);
    }
    return lines.length > 1 ? lines : [...lines, '  no changes'];
  }

  return {
    createTenant,
    issueApiKey,
    authorizeKey,
    createUser,
    resolveUser,
    applyTenantConfig,
    planTenantConfig,
    rotateWebhookSecret,
    readConfig,
    replaceConfig,
    auditEntries: audit.list,
    getTenant: tenants.getTenant,
    listTenants: tenants.listTenants,
  };
}

export type TenantService = ReturnType<typeof tenantService>;
