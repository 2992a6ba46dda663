import * as v from 'valibot';
import type { DeliveryConfig, Settings, SettingsWrite } from './config-schema.js';
import type { ApiKeyRepository, TenantAccessRepository, UserRepository } from '../access/ports.js';
import type { BrandRepository, BrandSettings } from '../brand/ports.js';
import type { SigningRepository } from '../events/ports.js';
import type { AppliedFingerprint } from './apply-plan.js';

export const Tenant = v.object({ id: v.number(), name: v.string(), created_at: v.string() });
export type Tenant = v.InferOutput<typeof Tenant>;

/**
 * The names of a new tenant's first store and employee, which customers read in their survey ("How was your visit
 * to <store>?"): given by the operator, never a placeholder.
 */
export interface FirstStore {
  store: string;
  employee: string;
}

/**
 * Where new tenants are made (the operator's command only): `shared/adapters/tenant-creation.ts` implements it, apart
 * from the repository, as it writes the first store and employee.
 */
export interface TenantCreation {
  /** Creates a tenant with its first store 1 and employee 1 and its brand; without an id, the next free one. */
  insertTenant(name: string, first: FirstStore, requestedId?: number): Promise<Tenant>;
}

/** A replaced configuration as it is written, and what the partition held when it was read (strongly, before the claim). */
export interface ConfigWrite {
  settings: SettingsWrite;
  delivery: DeliveryConfig;
  brand: BrandSettings;
  /** The journeys, classes, groups, regions and themes stored: those `settings` no longer lists are deleted. */
  stored: Pick<Settings, 'journeys' | 'classes' | 'groups' | 'regions' | 'themes'>;
  /** Whether the themes changed: only then are they written (up to 100 items), `settings.themes` absent for the defaults. */
  themesChanged: boolean;
  /** The webhook endpoints that have a signing generation already: the others listed get generation 1. */
  signed: string[];
}

/** How a raise of the configuration's version goes: from `expected` (or `from`, the one believed current), as a claim or its release. */
export interface ConfigVersionRaise {
  expected?: number;
  writing?: 'claim' | 'release';
  from?: number;
}

/**
 * Where tenants, their keys, users, brand, settings and signing generations are kept (each concept's port and the
 * configuration's): `shared/adapters/tenant-repository.ts` implements it.
 */
export interface TenantRepository extends TenantAccessRepository, ApiKeyRepository, UserRepository, BrandRepository, SigningRepository {
  getTenant(id: number): Promise<Tenant | undefined>;
  renameTenant(id: number, name: string): Promise<void>;
  listTenants(): Promise<Tenant[]>;
  putSettings(tenantId: number, settings: SettingsWrite): Promise<void>;
  readSettings(tenantId: number): Promise<Settings>;
  /** The settings and the configuration version they were read at, read strongly. */
  readVersionedSettings(tenantId: number): Promise<{ settings: Settings; version: number }>;
  /**
   * Raises the configuration's version by one and answers the new one; with `expected`, only if it is still that
   * one (undefined otherwise). Every change of the configuration raises it, so that functions read it again.
   */
  raiseConfigVersion(tenantId: number, raise?: ConfigVersionRaise): Promise<number | undefined>;
  /**
   * A replacement's claim of the configuration's version (`raiseConfigVersion(tenantId, { expected, writing: 'claim' })`), renaming
   * the tenant in the same transaction when `name` is given; undefined if the version moved or is claimed.
   */
  claimConfigVersion(tenantId: number, expected: number, name?: string): Promise<number | undefined>;
  /**
   * Writes a replaced configuration (the admin API's), between a claim of its version and the release; answers the
   * webhook endpoints that got their first signing generation (as `putDelivery` does).
   */
  writeConfig(tenantId: number, write: ConfigWrite): Promise<{ newEndpoints: string[] }>;
  /**
   * Writes the delivery settings. Each webhook endpoint they list (`CHATBOT_ENDPOINT`, `eventEndpoint(url)`) that has
   * no signing generation yet gets generation 1: answered in `newEndpoints`, so that its secret is shown once.
   */
  putDelivery(tenantId: number, delivery: DeliveryConfig): Promise<{ newEndpoints: string[] }>;
  /** What the last `apply` wrote of the configuration (apply-plan.ts); undefined before the first that recorded it. */
  readApplied(tenantId: number): Promise<AppliedFingerprint | undefined>;
  putApplied(tenantId: number, fingerprint: AppliedFingerprint): Promise<void>;
}
