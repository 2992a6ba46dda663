import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { NotFoundError, StateConflictError, ValidationError } from '../errors.js';
import { dateTime, text, instant } from '../schema.js';
import type { AuditActor, AuditEntry, AuditLog, ConfigChange } from '../audit/log.js';
import { hashSecret, KEY_PREFIXES, KEY_SCOPES, newSecret } from './credentials.js';
import type { ApiKeyRecord, ApiKeyRepository, TenantAccessRepository } from './ports.js';

/** How long a rotated key may keep working beside its successor: at most a week. */
export const MAX_GRACE_SECONDS = 7 * 86_400;

/** A key's id, as the keys list shows it (12 hexadecimal characters). */
export const KeyIdPath = v.strictObject({
  id: v.pipe(v.string('must be a string'), v.regex(/^[0-9a-f]{12}$/, 'must be a key id (12 hexadecimal characters) from the keys list')),
});

/** An expiry: a date-time (a day alone would leave its hour to guess), in UTC. */
const Expiry = v.pipe(
  dateTime,
  v.check((value) => value.length > 10, 'must be a date-time (YYYY-MM-DDTHH:MM:SSZ)'),
  v.transform((value) => new Date(value).toISOString()),
);

/** POST /public/admin/keys: what the key may do, what the tenant calls it, and when it stops working (none: until revoked). */
export const NewKeyBody = v.strictObject({
  scope: v.picklist(KEY_SCOPES, `must be one of ${KEY_SCOPES.join(', ')}`),
  name: text(80),
  expires_at: v.optional(v.nullable(Expiry)),
});
export type NewKeyBody = v.InferOutput<typeof NewKeyBody>;

/** POST /public/admin/keys/{id}/rotate: how long the old key keeps working, and the new key's expiry. */
export const RotateKeyBody = v.strictObject({
  grace_seconds: v.pipe(
    v.number('must be a number of seconds'),
    v.integer('must be a whole number of seconds'),
    v.minValue(0, 'must be 0 or more'),
    v.maxValue(MAX_GRACE_SECONDS, `must be at most ${MAX_GRACE_SECONDS} (a week)`),
  ),
  expires_at: v.optional(v.nullable(Expiry)),
});
export type RotateKeyBody = v.InferOutput<typeof RotateKeyBody>;

/** A key as the admin API lists it: never its value, which only its hash stands for. */
export const KeyView = v.object({
  id: v.string(),
  name: v.nullable(v.string()),
  scope: v.picklist(KEY_SCOPES),
  created_at: instant,
  expires_at: v.nullable(instant),
  revoked_at: v.nullable(instant),
  last_used_at: v.nullable(instant),
  rotated_to: v.nullable(v.string()),
});
export type KeyView = v.InferOutput<typeof KeyView>;

/** A key just issued: its value, shown this once. */
export const IssuedKeyView = v.object({ ...KeyView.entries, key: v.string() });
export type IssuedKeyView = v.InferOutput<typeof IssuedKeyView>;

const viewOf = (record: ApiKeyRecord): KeyView => ({
  id: record.keyId,
  name: record.name ?? null,
  scope: record.scope,
  created_at: record.created_at,
  expires_at: record.expires_at ?? null,
  revoked_at: record.revoked_at ?? null,
  last_used_at: record.last_used_at ?? null,
  rotated_to: record.rotated_to ?? null,
});

/** What the audit log shows of a key: never its value or hash. */
const audited = (record: ApiKeyRecord) => ({ name: record.name ?? null, scope: record.scope, expires_at: record.expires_at ?? null });

/**
 * A tenant's API keys, administered by the tenant itself: issued (the value shown once), listed with their last use,
 * revoked, and rotated with a grace period in which the old key and its successor both work. Every change is written
 * to the audit log, without the key's value, and raises the tenant's configuration version once the key is written:
 * a handler takes an authorizer answer cached at the version before without reading the key (shared/access/tenant-access.ts),
 * so the raise, after the write and before the answer, is what refuses a revoked key on the very next request.
 */
export function apiKeys(tenants: ApiKeyRepository, audit: AuditLog) {
  async function record(
    tenantId: number,
    { actor, action, changes, at }: { actor: AuditActor; action: AuditEntry['action']; changes: ConfigChange[]; at: Date },
  ) {
    await audit.record(tenantId, { id: randomBytes(6).toString('hex'), at: at.toISOString(), actor, action, changes });
  }

  const futureExpiry = (expiresAt: string | null | undefined, now: Date): string | null => {
    if (expiresAt && Date.parse(expiresAt) <= now.getTime())
      throw new ValidationError('The expiry has passed already.', [{ path: 'expires_at', message: 'must be in the future' }]);
    return expiresAt ?? null;
  };

  const newRecord = (tenantId: number, fields: Pick<ApiKeyRecord, 'scope' | 'name' | 'expires_at'>, now: Date): ApiKeyRecord => ({
    tenantId,
    keyId: randomBytes(6).toString('hex'),
    created_at: now.toISOString(),
    revoked_at: null,
    last_used_at: null,
    rotated_to: null,
    ...fields,
  });

  async function find(tenantId: number, keyId: string) {
    const found = await tenants.findApiKeyById(tenantId, keyId);
    if (!found) throw new NotFoundError('This tenant has no key with that id.');
    return found;
  }

  /** Issues a key; its value is answered here once and never stored (only its hash). */
  async function issueKey(
    tenantId: number,
    { body, actor, now = new Date() }: { body: NewKeyBody; actor: AuditActor; now?: Date },
  ): Promise<IssuedKeyView> {
    const key = newSecret(KEY_PREFIXES[body.scope]);
    const stored = newRecord(tenantId, { scope: body.scope, name: body.name, expires_at: futureExpiry(body.expires_at, now) }, now);
    // 256 random bits: a value already stored would be a broken random source, not a case to handle.
    if (!(await tenants.insertApiKey(hashSecret(key), stored))) throw new Error('A new key collided with a stored one.');
    await tenants.raiseConfigVersion(tenantId);
    await record(tenantId, {
      actor,
      action: 'key.issue',
      changes: [{ path: `keys[id=${stored.keyId}]`, old: null, new: audited(stored) }],
      at: now,
    });
    return { ...viewOf(stored), key };
  }

  /** The tenant's keys, oldest first, revoked and expired ones included (an admin sees what stopped and when). */
  async function listKeys(tenantId: number): Promise<KeyView[]> {
    const all = await tenants.listApiKeys(tenantId);
    return all.map(viewOf).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  /**
   * Revokes a key: refused from the next request of every function. Revoking a revoked key changes nothing but the
   * version, raised again so that a revocation interrupted before its raise is completed by its retry.
   */
  async function revokeKey(
    tenantId: number,
    { keyId, actor, now = new Date() }: { keyId: string; actor: AuditActor; now?: Date },
  ): Promise<KeyView> {
    const found = await find(tenantId, keyId);
    if (found.revoked_at) {
      await tenants.raiseConfigVersion(tenantId);
      return viewOf(found);
    }
    // Another revocation may have won since the read: its time stands, and it wrote the audit entry.
    const revoked = await tenants.markApiKeyRevoked(found.hash, now.toISOString());
    await tenants.raiseConfigVersion(tenantId);
    if (revoked !== 'revoked') return viewOf(await find(tenantId, keyId));
    await record(tenantId, {
      actor,
      action: 'key.revoke',
      changes: [{ path: `keys[id=${keyId}].revoked_at`, old: null, new: now.toISOString() }],
      at: now,
    });
    return viewOf({ ...found, revoked_at: now.toISOString() });
  }

  /**
   * Gives a key a successor with its scope and name: the old key keeps working for `grace_seconds` (never past its own
   * expiry), then only the new one does. A key rotated already, revoked or expired is not rotated again (409): of two
   * rotations at once, one wins.
   */
  async function rotateKey(
    tenantId: number,
    { keyId, body, actor, now = new Date() }: { keyId: string; body: RotateKeyBody; actor: AuditActor; now?: Date },
  ): Promise<IssuedKeyView & { previous: KeyView }> {
    const old = await find(tenantId, keyId);
    if (old.revoked_at) throw new StateConflictError('This key is revoked: issue a new one instead.');
    if (old.expires_at && Date.parse(old.expires_at) <= now.getTime())
      throw new StateConflictError('This key has expired: issue a new one instead.');
    if (old.rotated_to) throw new StateConflictError(`This key was rotated already, to key ${old.rotated_to}: rotate that one.`);
    const graceEnds = new Date(now.getTime() + body.grace_seconds * 1000).toISOString();
    const oldExpiry = old.expires_at && old.expires_at < graceEnds ? old.expires_at : graceEnds;
    const scope = KEY_SCOPES.find((known) => known === old.scope);
    if (!scope) throw new Error('A stored key has a scope this code does not know.');
    const key = newSecret(KEY_PREFIXES[scope]);
    const successorExpiry = futureExpiry(body.expires_at, now);
    // A successor that stops before its predecessor would leave the integration with the key that dies first.
    if (successorExpiry && successorExpiry <= oldExpiry)
      throw new ValidationError('The new key would stop working before the old one.', [
        { path: 'expires_at', message: `must be after the old key stops working (${oldExpiry})` },
      ]);
    const successor = newRecord(tenantId, { scope: old.scope, name: old.name ?? null, expires_at: successorExpiry }, now);
    if (!(await tenants.rotateApiKey(old.hash, { hash: hashSecret(key), record: successor }, oldExpiry)))
      throw new StateConflictError('This key was rotated or revoked meanwhile: read the keys list again.');
    await tenants.raiseConfigVersion(tenantId);
    await record(tenantId, {
      actor,
      action: 'key.rotate',
      changes: [
        { path: `keys[id=${keyId}].expires_at`, old: old.expires_at ?? null, new: oldExpiry },
        { path: `keys[id=${keyId}].rotated_to`, old: null, new: successor.keyId },
        { path: `keys[id=${successor.keyId}]`, old: null, new: audited(successor) },
      ],
      at: now,
    });
    return { ...viewOf(successor), key, previous: viewOf({ ...old, expires_at: oldExpiry, rotated_to: successor.keyId }) };
  }

  return { issueKey, listKeys, revokeKey, rotateKey };
}

/** The tenant and id of a key given by its value (the operator's `revoke-key --key`), or undefined. */
export async function keyOfValue(
  tenants: Pick<TenantAccessRepository, 'findApiKey'>,
  value: string,
): Promise<{ tenantId: number; keyId: string } | undefined> {
  const found = await tenants.findApiKey(hashSecret(value));
  return found && { tenantId: found.tenantId, keyId: found.keyId };
}
