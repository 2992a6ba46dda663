import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { DomainError, DuplicateError, ForbiddenError, NotFoundError, StateConflictError } from '../errors.js';
import { email, instant } from '../schema.js';
import type { AuditActor, AuditLog, ConfigChange } from '../audit/log.js';
import { outsideScope, sameScope, UserScope } from './user-scope.js';
import { hashSecret, newSecret } from './credentials.js';
import { USER_ROLES, type UserRecord, type UserRepository, type UserRole } from './ports.js';
import { AdminRefusedError, requireAdmin } from './capabilities.js';
import { NoSenderError, temporaryPassword, type Invitations } from './invitation.js';
import { DEFAULT_DIGEST, DIGEST_CHOICES } from './digest-choice.js';

/** A user's name in a path: a manager's e-mail address, or the name a tenant file gave an API user. */
export const UserNamePath = v.strictObject({
  email: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(254, 'must be at most 254 characters')),
});

const Role = v.picklist(USER_ROLES, `must be one of ${USER_ROLES.join(', ')}`);
/** Which digest e-mail the user gets (shared/digest/sending.ts): weekly by default, daily, or none. */
const Digest = v.picklist(DIGEST_CHOICES, `must be one of ${DIGEST_CHOICES.join(', ')}`);

/** POST /public/admin/users: a manager who signs in with their e-mail address, what they see, and their role. */
export const NewUserBody = v.strictObject({ email, scope: UserScope, role: v.optional(Role, 'member'), digest: v.optional(Digest) });
/** A new user; `phone` in E.164, parsed at the edge (user-phone.ts). */
export type NewUserBody = v.InferOutput<typeof NewUserBody> & { phone?: string };

/** The fields a user's change may name (the users API adds the phone: user-phone.ts). */
export const UserPatchFields = v.strictObject({
  scope: v.optional(UserScope),
  role: v.optional(Role),
  disabled: v.optional(v.boolean('must be true or false')),
  digest: v.optional(Digest),
});

/** A change of a user's scope, role or state, at least one (the workspace's form). */
export const UserPatchBody = v.pipe(
  UserPatchFields,
  v.check((patch) => Object.keys(patch).length > 0, 'must change at least one of scope, role, disabled, digest'),
);
/** What a change may hold: `phone` E.164 (parsed at the edge, user-phone.ts), null to remove it. */
export type UserPatchBody = v.InferOutput<typeof UserPatchBody> & { phone?: string | null };

/** A user as the admin API answers it: never their token, which only its hash stands for. */
export const UserView = v.object({
  name: v.string(),
  scope: UserScope,
  role: Role,
  created_at: instant,
  disabled_at: v.nullable(instant),
  /**
   * The last 4 digits of the manager's mobile, or null without one: enough to check which number is set, while the
   * number itself (an employee's personal data) stays out of every list an integration reads and may log.
   */
  phone_last4: v.nullable(v.string()),
  /** Which digest e-mail the user gets: `weekly` (the default), `daily` (when the tenant sends daily ones) or `off`. */
  digest: Digest,
});
export type UserView = v.InferOutput<typeof UserView>;

/**
 * A user just created: their API user token, shown this once, and whether the sign-in invitation went out (`created`:
 * e-mailed with a temporary password; `exists`: the address had this tenant's sign-in already, nothing was sent;
 * `no-sender`: the sign-in was made, but the tenant has no e-mail sender to send it: set one and invite again).
 */
export const CreatedUserView = v.object({
  ...UserView.entries,
  token: v.string(),
  invited: v.picklist(['created', 'exists', 'no-sender']),
});
export type CreatedUserView = v.InferOutput<typeof CreatedUserView>;

const viewOf = (user: UserRecord): UserView => ({
  name: user.name,
  scope: user.scope,
  role: user.role ?? 'member',
  created_at: user.created_at,
  disabled_at: user.disabled_at ?? null,
  phone_last4: user.phone ? user.phone.slice(-4) : null,
  digest: user.digest ?? DEFAULT_DIGEST,
});

/** What the audit log records of a phone: whether one is set, never its value. */
const HIDDEN = '(hidden)';
const auditedPhone = (phone: string | undefined | null) => (phone ? HIDDEN : null);

/** The identity provider's side of a user (Cognito: shared/adapters/cognito.ts). */
export interface SignInDirectory {
  /**
   * Creates the sign-in user bound to the tenant with `temporaryPassword`, sending nothing (the service e-mails the
   * invitation). `exists`: the address has a sign-in bound to this tenant already. `elsewhere`: its sign-in is bound to
   * another tenant (the pool is the deployment's, one account per address), left as it is.
   */
  invite(user: { email: string; tenantId: number; temporaryPassword: string }): Promise<'created' | 'exists' | 'elsewhere'>;
  /**
   * Gives the tenant's sign-in user who never signed in a new temporary password (the old one stops working). One who
   * has signed in keeps theirs (`signed-in`); an address without a sign-in of this tenant is `missing`.
   */
  renewTemporaryPassword(user: {
    email: string;
    tenantId: number;
    temporaryPassword: string;
  }): Promise<'renewed' | 'signed-in' | 'missing'>;
  /**
   * Lets the tenant's user sign in again, or not (Cognito then refuses their sign-in and their refresh token). A sign-in
   * user of the address bound to another tenant is not this tenant's to change: left as it is.
   */
  setEnabled(user: { email: string; tenantId: number }, enabled: boolean): Promise<void>;
}

/**
 * An admin disabling themself, or dropping their own admin role, would lock themself out of what they are doing:
 * refused, for the API (a user token's admin) and the workspace's pages alike.
 */
export class SelfLockoutError extends StateConflictError {
  constructor(readonly change: 'disable' | 'role') {
    super(
      change === 'disable'
        ? 'You cannot disable yourself: ask another admin of the tenant.'
        : 'You cannot drop your own admin role: ask another admin of the tenant.',
    );
  }
}

/**
 * An address whose sign-in belongs to another tenant cannot be this tenant's manager: they could never sign in to it.
 * Refused with an answer that says neither that the address has an account nor whose it is (an admin probing addresses
 * learns only that this one cannot be invited here); nothing is written.
 */
export class AddressUnavailableError extends DomainError {
  constructor() {
    // Not the `conflict` kind, whose title says the address already exists.
    super('state-conflict', 'This e-mail address cannot be invited to this tenant: invite the manager with another address.', [
      { path: 'email', message: 'cannot be invited to this tenant' },
    ]);
  }
}

/** What an admin user may not grant or change, beyond their own scope and role: 403 naming what was refused. */
export class GrantRefusedError extends ForbiddenError {
  constructor(
    readonly refused: 'own-scope' | 'own-role' | 'scope' | 'role' | 'user',
    outside?: ReturnType<typeof outsideScope>,
  ) {
    super(
      {
        'own-scope': 'You cannot change your own scope: ask another admin of the tenant.',
        'own-role': 'You cannot change your own role: ask another admin of the tenant.',
        scope: `You cannot grant a scope wider than your own: ${describeOutside(outside)} outside it.`,
        role: 'You cannot grant a role above your own.',
        user: 'You cannot change a user who sees stores or groups outside your own scope: ask an admin who sees them.',
      }[refused],
    );
  }
}

const describeOutside = (outside: ReturnType<typeof outsideScope>) =>
  outside === 'all'
    ? 'every store and group is'
    : [
        ...(outside?.stores.length ? [`stores ${outside.stores.join(', ')}`] : []),
        ...(outside?.groups.length ? [`groups ${outside.groups.join(', ')}`] : []),
        ...(outside?.regions.length ? [`regions ${outside.regions.join(', ')}`] : []),
      ].join(', ') + ' are';

const rank = (role: UserRole | undefined) => USER_ROLES.indexOf(role ?? 'member');

/**
 * Who grants: an admin key or the operator (`all`: anything), or an admin user, who may grant only scopes within
 * their own and roles up to their own, may change only users whose scope is within their own, and may not change
 * their own scope or role.
 */
export type Grantor = 'all' | Pick<UserRecord, 'name' | 'scope' | 'role'>;

/** What `grantor` may not do in giving `scope` and `role`: undefined when both are within their own. */
export function grantRefusal(grantor: Grantor, grant: { scope?: UserScope | undefined; role?: UserRole | undefined }) {
  if (grantor === 'all') return undefined;
  const outside = grant.scope === undefined ? undefined : outsideScope(grant.scope, grantor.scope);
  if (outside) return new GrantRefusedError('scope', outside);
  if (grant.role !== undefined && rank(grant.role) > rank(grantor.role)) return new GrantRefusedError('role');
  return undefined;
}

/** What `grantor` may not do in changing `current` (a user as stored) by `patch`: undefined when it is theirs to do. */
export function changeRefusal(grantor: Grantor, current: UserRecord, patch: UserPatchBody) {
  if (grantor === 'all') return undefined;
  if (grantor.name.toLowerCase() === current.name.toLowerCase()) {
    if (patch.scope !== undefined && !sameScope(patch.scope, current.scope)) return new GrantRefusedError('own-scope');
    if (patch.role !== undefined && patch.role !== (current.role ?? 'member')) return new GrantRefusedError('own-role');
    return undefined;
  }
  if (outsideScope(current.scope, grantor.scope) || rank(current.role) > rank(grantor.role)) return new GrantRefusedError('user');
  return grantRefusal(grantor, patch);
}

/** The change of `patch` that would lock `actor` out of the admin pages and routes, if `name` is the actor. */
export function selfLockout(actor: AuditActor, name: string, patch: UserPatchBody): SelfLockoutError | undefined {
  if (!('user' in actor) || actor.user.toLowerCase() !== name.toLowerCase()) return undefined;
  if (patch.disabled === true) return new SelfLockoutError('disable');
  if (patch.role !== undefined && patch.role !== 'admin') return new SelfLockoutError('role');
  return undefined;
}

/**
 * A tenant's users, administered by the tenant: created (a sign-in invitation e-mailed with a temporary password, and
 * an API user token shown once), listed, changed (scope, role) and disabled, which refuses their token, their workspace
 * pages and their session's refresh at once. Every change is written to the audit log; the password never is.
 */
export function tenantUsers({
  users,
  directory,
  audit,
  invitations,
}: {
  users: Pick<UserRepository, 'findUserByName' | 'insertUser' | 'listUsers' | 'updateUser'>;
  directory: SignInDirectory;
  audit: AuditLog;
  invitations: Invitations;
}) {
  const record = (
    tenantId: number,
    { actor, action, changes, at }: { actor: AuditActor; action: 'user.create' | 'user.update'; changes: ConfigChange[]; at: Date },
  ) => audit.record(tenantId, { id: randomBytes(6).toString('hex'), at: at.toISOString(), actor, action, changes });

  /** What the actor may grant: an admin user as stored now (their scope may have changed since their request began). */
  async function grantorOf(tenantId: number, actor: AuditActor): Promise<Grantor> {
    if (!('user' in actor)) return 'all';
    const user = await users.findUserByName(tenantId, actor.user);
    if (!user) throw new AdminRefusedError('not-admin');
    requireAdmin(user, 'users');
    return user;
  }

  async function listUsers(tenantId: number): Promise<UserView[]> {
    return (await users.listUsers(tenantId)).map(viewOf).sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * Creates a user named by their e-mail address; one that exists already is a conflict (change it with PATCH), and so
   * is an address whose sign-in is another tenant's. The sign-in is made first, so that a refused address leaves nothing
   * written; a user whose write then fails is made again by the same request (the invitation answers `exists`). The
   * invitation is e-mailed once the user is written: a conflict sends nothing, and a failed send is made good by
   * `resendInvitation`.
   */
  async function createUser(
    tenantId: number,
    { body, actor, now = new Date() }: { body: NewUserBody; actor: AuditActor; now?: Date },
  ): Promise<CreatedUserView> {
    const [existing, grantor, invitation] = await Promise.all([
      users.findUserByName(tenantId, body.email),
      grantorOf(tenantId, actor),
      invitations.prepare(tenantId),
    ]);
    const refusal = grantRefusal(grantor, body);
    if (refusal) throw refusal;
    if (existing) throw DuplicateError.of('user', 'email');
    const password = temporaryPassword();
    const made = await directory.invite({ email: body.email, tenantId, temporaryPassword: password });
    if (made === 'elsewhere') throw new AddressUnavailableError();
    const invited = made === 'created' && !invitation ? 'no-sender' : made;
    const token = newSecret('sut');
    const user: UserRecord = {
      name: body.email,
      scope: body.scope,
      role: body.role,
      tokenHash: hashSecret(token),
      created_at: now.toISOString(),
      ...(body.phone ? { phone: body.phone } : {}),
      ...(body.digest ? { digest: body.digest } : {}),
    };
    // Of two invitations of one address at once, one user is made; the other is a conflict like any existing user.
    if (!(await users.insertUser(tenantId, user))) throw DuplicateError.of('user', 'email');
    await record(tenantId, {
      actor,
      action: 'user.create',
      changes: [
        {
          path: `users[name=${body.email}]`,
          old: null,
          new: { scope: body.scope, role: body.role, ...(body.phone ? { phone: HIDDEN } : {}) },
        },
      ],
      at: now,
    });
    if (invited === 'created' && invitation) await invitation({ email: body.email, temporaryPassword: password });
    return { ...viewOf(user), token, invited };
  }

  /**
   * E-mails a user who never signed in a new invitation: a new temporary password (the one before stops working). A
   * user who has signed in is left as they are (`signed-in`), and so is one without a sign-in (`missing`: an API user).
   */
  async function resendInvitation(tenantId: number, { name, actor, now = new Date() }: { name: string; actor: AuditActor; now?: Date }) {
    const [current, grantor] = await Promise.all([users.findUserByName(tenantId, name), grantorOf(tenantId, actor)]);
    if (!current) throw new NotFoundError('This tenant has no user of that name.');
    const refusal = changeRefusal(grantor, current, {});
    if (refusal) throw refusal;
    const invitation = await invitations.prepare(tenantId);
    if (!invitation) throw new NoSenderError();
    const password = temporaryPassword();
    const renewed = await directory.renewTemporaryPassword({ email: current.name, tenantId, temporaryPassword: password });
    if (renewed !== 'renewed') return renewed;
    await invitation({ email: current.name, temporaryPassword: password });
    await record(tenantId, {
      actor,
      action: 'user.update',
      changes: [{ path: `users[name=${current.name}].invitation`, old: null, new: 'sent' }],
      at: now,
    });
    return 'sent' as const;
  }

  /** Changes a user's scope, role or state; disabling takes effect on their next request, page or session refresh. */
  async function updateUser(
    tenantId: number,
    { given, patch, actor, now = new Date() }: { given: string; patch: UserPatchBody; actor: AuditActor; now?: Date },
  ): Promise<UserView> {
    const lockout = selfLockout(actor, given, patch);
    if (lockout) throw lockout;
    // An address in capitals names the user POST stored in lower case (a name that is not an address is taken as given).
    const [found, grantor] = await Promise.all([users.findUserByName(tenantId, given), grantorOf(tenantId, actor)]);
    const current = found ?? (given !== given.toLowerCase() ? await users.findUserByName(tenantId, given.toLowerCase()) : undefined);
    if (!current) throw new NotFoundError('This tenant has no user of that name.');
    const refusal = changeRefusal(grantor, current, patch);
    if (refusal) throw refusal;
    const name = current.name;
    const before = viewOf(current);
    const disabled_at =
      patch.disabled === undefined ? before.disabled_at : patch.disabled ? (before.disabled_at ?? now.toISOString()) : null;
    const after: UserView = {
      ...before,
      scope: patch.scope ?? before.scope,
      role: patch.role ?? before.role,
      disabled_at,
      digest: patch.digest ?? before.digest,
    };
    if (patch.disabled !== undefined && patch.disabled !== (before.disabled_at !== null)) {
      // The directory first: a user refused by Cognito but enabled here would still be let in by nothing else.
      await directory.setEnabled({ email: name, tenantId }, !patch.disabled);
    }
    const phone = patch.phone === undefined ? current.phone : (patch.phone ?? undefined);
    const changed = (['scope', 'role', 'disabled_at', 'digest'] as const).filter(
      (field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]),
    );
    const phoneChanged = phone !== current.phone;
    if (!changed.length && !phoneChanged) return before;
    // Only what this patch changes is written, so that another admin's change of another field at the same time stays.
    const stored = await users.updateUser(tenantId, current.tokenHash, {
      ...Object.fromEntries(changed.map((field) => [field, after[field]])),
      ...(phoneChanged ? { phone: phone ?? null } : {}),
    });
    const changes: ConfigChange[] = changed.map((field) => ({
      path: `users[name=${name}].${field}`,
      old: before[field],
      new: after[field],
    }));
    // That the phone changed, never what it is.
    if (phoneChanged) changes.push({ path: `users[name=${name}].phone`, old: auditedPhone(current.phone), new: auditedPhone(phone) });
    await record(tenantId, { actor, action: 'user.update', changes, at: now });
    return viewOf(stored);
  }

  return { listUsers, createUser, updateUser, resendInvitation };
}
