import * as v from 'valibot';
import type { BrandSettings, DeliveryConfig, LogoObject, Settings, SettingsWrite, UserScope } from './config-schema.js';
import { USER_ROLES, type UserRole } from '../access/roles.js';
import type { SigningGenerations } from '../events/signature.js';

export const Tenant = v.object({ id: v.number(), name: v.string(), created_at: v.string() });
export type Tenant = v.InferOutput<typeof Tenant>;

export const ApiKeyRecord = v.object({
  tenantId: v.number(),
  scope: v.string(),
  keyId: v.string(),
  created_at: v.string(),
  revoked_at: v.optional(v.nullable(v.string())),
  /** When the key stops working (ISO-8601 UTC); none: it works until revoked. */
  expires_at: v.optional(v.nullable(v.string())),
  /** What the tenant calls it (keys issued through the API have one). */
  name: v.optional(v.nullable(v.string())),
  /** When the authorizer last let it through, to LAST_USE_RESOLUTION_SECONDS (shared/access/api-keys.ts). */
  last_used_at: v.optional(v.nullable(v.string())),
  /** The id of the key that replaced it by rotation (it works until its `expires_at`, the end of the grace). */
  rotated_to: v.optional(v.nullable(v.string())),
});
export type ApiKeyRecord = v.InferOutput<typeof ApiKeyRecord>;

export { USER_ROLES, type UserRole };

export const UserRecord = v.object({
  name: v.string(),
  scope: v.union([v.literal('all'), v.object({ stores: v.array(v.number()), groups: v.array(v.number()) })]),
  tokenHash: v.string(),
  created_at: v.string(),
  role: v.optional(v.picklist(USER_ROLES)),
  /** Since when the user may no longer sign in or use their token; none: enabled. */
  disabled_at: v.optional(v.nullable(v.string())),
  /** The manager's mobile in E.164, for the case alert on WhatsApp (personal data: never logged nor audited). */
  phone: v.optional(v.string()),
});
export type UserRecord = v.InferOutput<typeof UserRecord>;

/**
 * The names of a new tenant's first store and employee, which customers read in their survey ("How was your visit
 * to <store>?"): given by the operator, never a placeholder.
 */
export interface FirstStore {
  store: string;
  employee: string;
}

/** The reads that check a caller: `shared/adapters/access-repository.ts` implements it. */
export interface TenantAccessRepository {
  /** Keys are found by the hash of their value; the value itself is never stored. */
  findApiKey(hash: string): Promise<ApiKeyRecord | undefined>;
  findUserByToken(tenantId: number, tokenHash: string): Promise<UserRecord | undefined>;
  /** The user a signed-in session names (its e-mail address), read consistently. */
  findUserByName(tenantId: number, name: string): Promise<UserRecord | undefined>;
  /**
   * Records that a key was used at `at`, unless its recorded last use is after `unlessAfter` already (one conditional
   * update; the caller calls it only when the key it read says so, so that most requests write nothing).
   */
  noteKeyUse(hash: string, at: string, unlessAfter: string): Promise<void>;
  /**
   * The configuration's version, read strongly: 0 before any change. Every change of a key (issued, revoked, rotated)
   * raises it after the key is written, so that a key checked at one version is known unchanged while it holds.
   */
  readConfigVersion(tenantId: number): Promise<number>;
}

/**
 * Where new tenants are made (the operator's command only): `shared/adapters/tenant-creation.ts` implements it, apart
 * from the repository, as it writes the first store and employee.
 */
export interface TenantCreation {
  /** Creates a tenant with its first store 1 and employee 1 and its brand; without an id, the next free one. */
  insertTenant(name: string, first: FirstStore, requestedId?: number): Promise<Tenant>;
}

/** Where tenants, their keys, users and settings are kept: `shared/adapters/tenant-repository.ts` implements it. */
export interface TenantRepository extends TenantAccessRepository {
  getTenant(id: number): Promise<Tenant | undefined>;
  renameTenant(id: number, name: string): Promise<void>;
  listTenants(): Promise<Tenant[]>;
  /** False when a key with this hash exists already. */
  insertApiKey(hash: string, record: ApiKeyRecord): Promise<boolean>;
  listApiKeys(tenantId: number): Promise<(ApiKeyRecord & { hash: string })[]>;
  /** Revokes a key at `at` unless it is revoked already (then its time stays): which of the three it found. */
  markApiKeyRevoked(hash: string, at: string): Promise<'revoked' | 'already' | 'missing'>;
  /** One of the tenant's keys by its id, read strongly (by its hash, once the id is found). */
  findApiKeyById(tenantId: number, keyId: string): Promise<(ApiKeyRecord & { hash: string }) | undefined>;
  /**
   * Stores `successor` and marks the key of `hash` rotated to it, expiring at `expiresAt`, in one transaction, only if
   * that key is neither revoked nor rotated already: false otherwise (of two rotations at once, one wins).
   */
  rotateApiKey(hash: string, successor: { hash: string; record: ApiKeyRecord }, expiresAt: string): Promise<boolean>;
  findUserByName(tenantId: number, name: string): Promise<UserRecord | undefined>;
  putUser(tenantId: number, user: UserRecord): Promise<void>;
  /** Writes a new user unless a user of the tenant holds its name already (false then; of two at once, one wins). */
  insertUser(tenantId: number, user: UserRecord): Promise<boolean>;
  deleteUser(tenantId: number, tokenHash: string): Promise<void>;
  updateUserScope(tenantId: number, tokenHash: string, scope: UserScope): Promise<void>;
  /** The tenant's users (one Query of their collection). */
  listUsers(tenantId: number): Promise<UserRecord[]>;
  /**
   * Sets the given of a user's scope, role, disabled state and phone (null removes it), and no other (one UpdateItem
   * of the user's item, which must exist); answers the user as stored.
   */
  updateUser(
    tenantId: number,
    tokenHash: string,
    fields: Partial<Pick<UserRecord, 'scope' | 'role' | 'disabled_at'>> & { phone?: string | null },
  ): Promise<UserRecord>;
  putSettings(tenantId: number, settings: SettingsWrite): Promise<void>;
  putBrand(tenantId: number, brand: BrandSettings): Promise<void>;
  /** Records that the tenant uploaded this logo object, so that its brand may name it (shared/brand/logo.ts, LogoUploads). */
  recordLogo(tenantId: number, logo: LogoObject, atMost?: number): Promise<'recorded' | 'exists' | 'full'>;
  /** A logo the tenant uploaded, by its object name; undefined for one it did not. */
  findLogo(tenantId: number, file: string): Promise<LogoObject | undefined>;
  readSettings(tenantId: number): Promise<Settings>;
  /** The settings and the configuration version they were read at, read strongly. */
  readVersionedSettings(tenantId: number): Promise<{ settings: Settings; version: number }>;
  /**
   * Raises the configuration's version by one and answers the new one; with `expected`, only if it is still that
   * one (undefined otherwise). Every change of the configuration raises it, so that functions read it again.
   */
  raiseConfigVersion(tenantId: number, expected?: number, writing?: 'claim' | 'release'): Promise<number | undefined>;
  /** Deletes the journeys, classes and groups stored for the tenant that `settings` does not list. */
  removeUnlisted(tenantId: number, settings: Pick<Settings, 'journeys' | 'classes' | 'groups'>): Promise<void>;
  /**
   * Writes the delivery settings. Each webhook endpoint they list (`CHATBOT_ENDPOINT`, `eventEndpoint(url)`) that has
   * no signing generation yet gets generation 1: answered in `newEndpoints`, so that its secret is shown once.
   */
  putDelivery(tenantId: number, delivery: DeliveryConfig): Promise<{ newEndpoints: string[] }>;
  /**
   * Raises an endpoint's signing generation by one, keeping the one before until `previousUntil` (ISO-8601); answers
   * the generations now in force. Undefined, and nothing changed, when `previousUntil` is after `now` (an overlap) while
   * the last rotation's overlap still runs: its older generation would stop signing at once.
   */
  rotateSigning(tenantId: number, endpoint: string, previousUntil: string, now: string): Promise<SigningGenerations | undefined>;
}
