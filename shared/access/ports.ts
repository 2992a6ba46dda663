import * as v from 'valibot';
import { KEY_SCOPES } from './credentials.js';
import { USER_ROLES, type UserRole } from './roles.js';
import type { UserScope } from './user-scope.js';
import { DIGEST_CHOICES } from './digest-choice.js';
import type { RegionConfig } from '../regions.js';

export const ApiKeyRecord = v.object({
  tenantId: v.number(),
  scope: v.picklist(KEY_SCOPES),
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

export const UserRecord = v.object({
  name: v.string(),
  scope: v.union([
    v.literal('all'),
    v.object({ stores: v.array(v.number()), groups: v.array(v.number()), regions: v.optional(v.array(v.number())) }),
  ]),
  tokenHash: v.string(),
  created_at: v.string(),
  role: v.optional(v.picklist(USER_ROLES)),
  /** Since when the user may no longer sign in or use their token; none: enabled. */
  disabled_at: v.optional(v.nullable(v.string())),
  /** The manager's mobile in E.164, for the case alert on WhatsApp (personal data: never logged nor audited). */
  phone: v.optional(v.string()),
  /** Which digest e-mail the user gets (shared/digest/sending.ts); none: weekly. */
  digest: v.optional(v.picklist(DIGEST_CHOICES)),
});
export type UserRecord = v.InferOutput<typeof UserRecord>;

export { USER_ROLES, type UserRole };

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
  /** The tenant's regions as configured now, read strongly (a region-scoped user's stores are resolved from them). */
  readRegions(tenantId: number): Promise<RegionConfig[]>;
}

/** Where a tenant's API keys are administered (api-keys.ts): the tenant repository implements it. */
export interface ApiKeyRepository {
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
  /** Raises the tenant's configuration version by one (every change of a key does, once the key is written). */
  raiseConfigVersion(tenantId: number): Promise<number | undefined>;
}

/** Where a tenant's users are kept (tenant-users.ts, the tenant file): the tenant repository implements it. */
export interface UserRepository {
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
    fields: Partial<Pick<UserRecord, 'scope' | 'role' | 'disabled_at' | 'digest'>> & { phone?: string | null },
  ): Promise<UserRecord>;
}
