import { ForbiddenError, UnauthenticatedError } from '../errors.js';
import { USER_TOKEN_HEADER } from '../headers.js';
import type { AuthContext } from './auth-context.js';
import { withRegionStores, type UserScope } from './user-scope.js';
import { ACCEPTED_SCOPES, apiOfScope, hashSecret, MAX_SECRET_LENGTH, type KeyApi } from './credentials.js';
import type { ApiKeyRecord, TenantAccessRepository, UserRecord } from './ports.js';

/**
 * How finely a key's last use is kept: the authorizer writes it when the recorded one is older than this. API
 * Gateway's authorizer cache (300 s by default) already hides the requests in between from the authorizer.
 */
export const LAST_USE_RESOLUTION_SECONDS = 300;

const lastUseDue = (lastUsedAt: string | null | undefined, now: Date): boolean =>
  !lastUsedAt || Date.parse(lastUsedAt) <= now.getTime() - LAST_USE_RESOLUTION_SECONDS * 1000;

type Verified = Extract<AuthContext, { authenticated: true }>;

const REFUSED: AuthContext = { authenticated: false };

/** Whether a stored key lets a caller of `api` in at `now`: not revoked, of an accepted scope, before its expiry. */
function admits(record: ApiKeyRecord | undefined, api: KeyApi, now: Date): record is ApiKeyRecord {
  if (!record || record.revoked_at || !ACCEPTED_SCOPES[api].some((scope) => scope === record.scope)) return false;
  // An expired key is refused like a revoked one (the end of a rotation's grace is an expiry).
  return !record.expires_at || Date.parse(record.expires_at) > now.getTime();
}

/** A key found valid at a configuration version: what a handler may take without reading the key while both hold. */
const verifiedAt = (record: ApiKeyRecord, version: number): Verified => ({
  authenticated: true,
  tenantId: record.tenantId,
  scope: record.scope,
  keyId: record.keyId,
  version,
  ...(record.expires_at ? { validUntil: record.expires_at } : {}),
});

/** Whether the clock has passed the instant a verified key stops working. */
const lapsed = (context: Verified, now: Date): boolean => !!context.validUntil && Date.parse(context.validUntil) <= now.getTime();

/** How many keys a process keeps confirmed at the current version (most processes see one or two). */
export const MAX_CONFIRMED = 1_000;

/**
 * Who may call: the checks of an API key and of a user token, and nothing of the tenants' administration, so that
 * the authorizer and the HTTP wrapper (every function behind the API) bundle only these reads.
 */
export function tenantAccess(tenants: TenantAccessRepository, { onUseNotRecorded }: { onUseNotRecorded?: (error: unknown) => void } = {}) {
  /** Keys this process read again after the version moved, by API and hash: read once per version, not per request. */
  const confirmed = new Map<string, Verified>();

  /**
   * What the authorizer decides for a presented key. A missing, malformed, unknown, revoked, expired or wrong-scope key is
   * `authenticated: false`; the handler answers it with one 401 body whatever the reason. `api` is the API asked:
   * the public one takes public and admin keys (ACCEPTED_SCOPES). A valid key's answer carries the configuration
   * version it was checked at and when it stops working, so that a cached answer needs no read of the key.
   */
  async function authorizeKey(
    presented: string | undefined,
    api: KeyApi,
    { now = new Date(), noteUse = false }: { now?: Date; noteUse?: boolean } = {},
  ): Promise<AuthContext> {
    if (!presented || presented.length > MAX_SECRET_LENGTH) return REFUSED;
    const hash = hashSecret(presented);
    const found = await tenants.findApiKey(hash);
    if (!admits(found, api, now)) return REFUSED;
    // Key, version, key, each read strongly. A change of a key writes the key, then raises the version, so a version
    // is only vouched for by a read of the key made after it: had the change been written before the version was read,
    // the second read would see it; not seen, its raise comes after the version read, and the answer's version is
    // older than the one every request reads once the change has answered. The first read only names the tenant.
    const version = await tenants.readConfigVersion(found.tenantId);
    const record = await tenants.findApiKey(hash);
    if (!admits(record, api, now) || record.tenantId !== found.tenantId) return REFUSED;
    if (noteUse && lastUseDue(record.last_used_at, now)) {
      // The key was read already: only a key whose recorded use is older than the resolution is written, so that a
      // busy key costs one write per resolution, not one per request. A failed write costs the caller nothing.
      const unlessAfter = new Date(now.getTime() - LAST_USE_RESOLUTION_SECONDS * 1000).toISOString();
      await tenants.noteKeyUse(hash, now.toISOString(), unlessAfter).catch((error: unknown) => onUseNotRecorded?.(error));
    }
    return verifiedAt(record, version);
  }

  /**
   * What a handler decides for an authorizer answer API Gateway cached: refused past the key's expiry or grace on the
   * clock alone; taken while the tenant's configuration version is the one the key was checked at (one read of a
   * version copy, spread over the copies); read again only when the version moved. That read comes after the
   * version's (the tenant is known), so a key found valid by it is vouched for at that version, as in authorizeKey:
   * this process then takes it at that version without reading it again.
   */
  async function confirmCachedKey(presented: string | undefined, context: Verified, now = new Date()): Promise<AuthContext> {
    if (lapsed(context, now) || !presented || presented.length > MAX_SECRET_LENGTH) return REFUSED;
    const version = await tenants.readConfigVersion(context.tenantId);
    if (context.version === version) return context;
    const api = apiOfScope(context.scope);
    const hash = hashSecret(presented);
    const known = confirmed.get(`${api}#${hash}`);
    if (known && known.version === version && known.tenantId === context.tenantId) return lapsed(known, now) ? REFUSED : known;
    confirmed.delete(`${api}#${hash}`);
    const record = await tenants.findApiKey(hash);
    if (!admits(record, api, now) || record.tenantId !== context.tenantId) return REFUSED;
    const current = verifiedAt(record, version);
    if (confirmed.size >= MAX_CONFIRMED) confirmed.delete(confirmed.keys().next().value!);
    confirmed.set(`${api}#${hash}`, current);
    return current;
  }

  /** The user a token belongs to in this tenant; a token of another tenant is worth nothing here. */
  async function resolveUser(tenantId: number, token: string | undefined): Promise<UserRecord> {
    const user = token && token.length <= MAX_SECRET_LENGTH ? await tenants.findUserByToken(tenantId, hashSecret(token)) : undefined;
    // A disabled user's token is refused like an unknown one.
    if (!user || user.disabled_at) throw new UnauthenticatedError(`A valid user token is required (header ${USER_TOKEN_HEADER}).`);
    return withRegions(tenantId, user);
  }

  /** The user with the stores of their regions as configured now (one Query, only for a user whose scope names regions). */
  async function withRegions(tenantId: number, user: UserRecord): Promise<UserRecord> {
    if (user.scope === 'all' || !user.scope.regions?.length) return user;
    return { ...user, scope: withRegionStores(user.scope, await tenants.readRegions(tenantId)) };
  }

  /**
   * The tenant user a signed-in session names: the one whose name is the e-mail address they sign in with. A session
   * whose user the tenant no longer has is refused, whatever Cognito says.
   */
  async function resolveSessionUser(tenantId: number, name: string): Promise<UserRecord> {
    const user = await tenants.findUserByName(tenantId, name);
    if (!user || user.disabled_at) throw new UnauthenticatedError('This account has no access to the workspace.');
    return withRegions(tenantId, user);
  }

  return { authorizeKey, confirmCachedKey, resolveUser, resolveSessionUser };
}

/**
 * What a route needs of its caller's user token, declared in its contract (`user`): any user of the tenant, or one
 * who sees every store, refused otherwise with the reason given.
 */
export type UserNeed = 'any' | { everyStore: string };

/** Refuses a user whose scope is not every store, when the route needs one. */
export function requireScope(need: UserNeed, user: UserRecord): void {
  if (need !== 'any' && user.scope !== 'all') throw new ForbiddenError(need.everyStore);
}

/** Whether a user's scope covers a store: every store, or one it lists. */
export const seesStore = (scope: UserScope, storeId: number): boolean => scope === 'all' || scope.stores.includes(storeId);
