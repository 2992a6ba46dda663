import * as v from 'valibot';
import { html, type HtmlValue, type SafeHtml } from '../html.js';
import type { AdminUsersKey } from '../i18n/catalogue.js';
import { ADMIN_USERS } from '../i18n/messages.js';
import { DomainError, NotFoundError } from '../errors.js';
import { APP_ADMIN_USERS_PATH } from '../session/paths.js';
import { USER_ROLES } from '../access/ports.js';
import { MAX_PHONE_LENGTH } from '../customers/phone.js';
import { outsideScope, type UserScope } from '../access/user-scope.js';
import { NewUserApiBody } from '../access/user-phone.js';
import { NoSenderError } from '../access/invitation.js';
import { signsIn } from '../cases/owner.js';
import {
  AddressUnavailableError,
  GrantRefusedError,
  SelfLockoutError,
  UserNamePath,
  UserPatchBody,
  type tenantUsers,
  type UserView,
} from '../access/tenant-users.js';
import { redirect, type WebAnswer } from '../web-answer.js';
import {
  addError,
  adminFrame,
  confirmed,
  confirmedAction,
  fieldError,
  inputField,
  postForm,
  problemsBox,
  doneNotice,
  redirectShowingOnce,
  selectField,
  submitButton,
  type AdminFrame,
  type AdminPagePorts,
  type AdminPageRequest,
  type ShownOncePorts,
  type FieldErrors,
} from './admin-form.js';
import { MAX_CHOICES } from './words.js';
import { DIGEST_CHOICES } from '../digest/choices.js';

/** This page's frame: the shared words and its own. */
export type UsersFrame = AdminFrame<AdminUsersKey>;

/** The users service of `/public/admin/users` (shared/access/tenant-users.ts). */
export type UsersPorts = Pick<AdminPagePorts, 'settings'> &
  ReturnType<typeof tenantUsers> & {
    shownOnce: ShownOncePorts;
    /** The groups a scope names, by id, for their names. */
    groups(tenantId: number): Promise<{ id: number; name: string }[]>;
    /** The stores of these ids, by name. */
    storeNames(tenantId: number, ids: number[]): Promise<Map<number, string>>;
    /** The stores a scope may grant, by name (undefined: more than `most`). */
    storeChoices(tenantId: number, scope: UserScope, most: number): Promise<Map<number, string> | undefined>;
  };

/** The names of the stores and groups the users' scopes list (a code the tenant no longer has, as its code). */
interface ScopeNames {
  stores: Map<number, string>;
  groups: Map<number, string>;
}

/** The stores and groups the admin may grant, offered by name; undefined: more than a list holds (their codes, typed). */
interface ScopeChoices {
  stores: Map<number, string> | undefined;
  groups: Map<number, string> | undefined;
  regions: Map<number, string> | undefined;
}

/** What the invitation form holds, as typed. */
interface UserValues {
  email: string;
  every: boolean;
  stores: string;
  groups: string;
  /** Regions by code (docs/regions.md): their stores are resolved at each request. */
  regions: string;
  role: string;
  /** The manager's mobile, for the WhatsApp alerts: E.164 or national (+55), as the users API takes it. */
  phone: string;
}
const EMPTY: UserValues = { email: '', every: false, stores: '', groups: '', regions: '', role: 'member', phone: '' };

/** A comma-separated list of codes as numbers; anything else is left for the schema to name. */
const idsOf = (list: string) =>
  list
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean)
    .map((id) => (/^\d+$/.test(id) ? Number(id) : id));

/** The scope a form's radio and lists stand for. */
const scopeOf = (values: Pick<UserValues, 'every' | 'stores' | 'groups' | 'regions'>) =>
  values.every
    ? 'all'
    : {
        stores: idsOf(values.stores),
        groups: idsOf(values.groups),
        ...(idsOf(values.regions).length ? { regions: idsOf(values.regions) } : {}),
      };

const valuesOf = (form: URLSearchParams): UserValues => ({
  email: (form.get('email') ?? '').trim(),
  every: form.get('scope') === 'all',
  // Ticked boxes or one field of codes: either way, a list of codes.
  stores: form.getAll('stores').join(','),
  groups: form.getAll('groups').join(','),
  regions: form.getAll('regions').join(','),
  role: form.get('role') ?? '',
  phone: (form.get('phone') ?? '').trim(),
});

const fieldOf = (path: string) => {
  const [field] = path.split('.');
  return field === 'email' || field === 'role' || field === 'scope' || field === 'phone' ? field! : '';
};

/**
 * The tenant admin's users (issue 34 §6) over the users service of `/public/admin/users`: each user's scope, role and
 * state; invite a manager with their mobile if given (the service e-mails the invitation; their API token goes to the
 * page after the post in the shown-once cookie), invite one again (a new temporary password), change what a user sees
 * and their role, set a person's digest e-mail (weekly, daily or none), disable one (once its confirmation is ticked)
 * or enable one. An admin cannot disable themself or drop
 * their own admin role (the service's rule).
 */
export function adminUsersPage(ports: UsersPorts) {
  async function showUsers(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_USERS_PATH, own: ADMIN_USERS });
    if (refused) return refused;
    const { t } = frame;
    const { notice, cookies } = await doneNotice({
      ports: ports.shownOnce,
      request,
      path: APP_ADMIN_USERS_PATH,
      boxId: 'new-token',
      said: {
        changed: t('admin.users.changed'),
        invited: t('admin.users.invitedGone'),
        resent: t('admin.users.resent'),
      },
    });
    return { ...(await render({ frame, request, status: 200, values: EMPTY, notice })), cookies };
  }

  async function saveUsers(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_USERS_PATH, own: ADMIN_USERS });
    if (refused) return refused;
    const { form, tenantId } = request;
    const { t } = frame;
    const actor = { user: request.user.name };
    const action = form.get('action');
    const sent = valuesOf(form);
    const errors: FieldErrors = new Map();
    const name = form.get('name') ?? '';
    const changed = () => redirect(`${request.base}${APP_ADMIN_USERS_PATH}?done=changed`);
    // The user a form names, checked as the API checks its path: a name no user can have is no user of this tenant.
    const userName = () => {
      if (!v.is(UserNamePath, { email: name })) throw new NotFoundError('No such user.');
      return name;
    };
    try {
      if (action === 'resend') {
        const resent = await ports.resendInvitation(tenantId, { name: userName(), actor });
        if (resent === 'sent') return redirect(`${request.base}${APP_ADMIN_USERS_PATH}?done=resent`);
        addError(errors, '', t(resent === 'signed-in' ? 'admin.users.signedIn' : 'admin.users.noSignIn'));
      } else if (action === 'disable' || action === 'enable') {
        if (action === 'disable' && !confirmed(form)) addError(errors, '', t('admin.confirmRequired'));
        else {
          await ports.updateUser(tenantId, { given: userName(), patch: { disabled: action === 'disable' }, actor });
          return changed();
        }
      } else if (action === 'digest') {
        const patch = v.safeParse(UserPatchBody, { digest: form.get('digest') ?? '' });
        if (patch.success) {
          await ports.updateUser(tenantId, { given: userName(), patch: patch.output, actor });
          return changed();
        }
        addError(errors, '', `${t('admin.users.digest')}: ${frame.say(patch.issues[0].message)}`);
      } else if (action === 'update') {
        const patch = v.safeParse(UserPatchBody, { scope: scopeOf(sent), role: sent.role });
        if (patch.success) {
          await ports.updateUser(tenantId, { given: userName(), patch: patch.output, actor });
          return changed();
        }
        for (const issue of patch.issues)
          addError(errors, '', `${labelOf(frame, fieldOf(v.getDotPath(issue) ?? ''))}${frame.say(issue.message)}`);
      } else {
        const body = v.safeParse(NewUserApiBody, {
          email: sent.email,
          scope: scopeOf(sent),
          role: sent.role,
          ...(sent.phone ? { phone: sent.phone } : {}),
        });
        if (body.success) {
          const created = await ports.createUser(tenantId, { body: body.output, actor });
          const invited = {
            created: 'admin.users.invited',
            exists: 'admin.users.invitedExists',
            'no-sender': 'admin.users.invitedNoSender',
          } as const;
          return redirectShowingOnce({
            ports: ports.shownOnce,
            request,
            path: APP_ADMIN_USERS_PATH,
            query: 'done=invited',
            shown: {
              notice: `${t(invited[created.invited], { email: created.name })} ${t('admin.users.userToken')}`,
              secret: created.token,
            },
          });
        }
        for (const issue of body.issues) addError(errors, fieldOf(v.getDotPath(issue) ?? ''), frame.say(issue.message));
      }
    } catch (error) {
      if (error instanceof SelfLockoutError)
        addError(errors, '', error.change === 'disable' ? t('admin.users.selfDisable') : t('admin.users.selfRole'));
      else if (error instanceof GrantRefusedError)
        addError(errors, action === 'create' && error.refused === 'scope' ? 'scope' : '', refusalText(t, error));
      else if (error instanceof AddressUnavailableError) addError(errors, 'email', t('admin.users.addressUnavailable'));
      else if (error instanceof NoSenderError) addError(errors, '', t('admin.users.noSender'));
      else if (!(error instanceof DomainError) || !['validation', 'not-found', 'conflict'].includes(error.kind)) throw error;
      else if (error.kind === 'conflict') addError(errors, 'email', frame.say(error.message));
      else if (error.kind === 'not-found') addError(errors, '', t('admin.users.userGone'));
      else for (const problem of error.errors) addError(errors, fieldOf(problem.path), frame.say(problem.message));
    }
    // A refused change of an existing user keeps the invitation form empty and that user's form open.
    const values = action === 'create' ? sent : EMPTY;
    const box = problemsBox({
      t: frame.t,
      outcome: { kind: 'invalid', errors },
      labels: labelsOf(frame),
      formId: action === 'create' ? 'user-form' : 'users',
    });
    return render({ frame, request, status: 400, values, notice: box, errors, editing: action === 'update' ? name : undefined });
  }

  async function render({
    frame,
    request,
    status,
    values,
    notice,
    errors,
    editing,
  }: {
    frame: UsersFrame;
    request: AdminPageRequest;
    status: number;
    values: UserValues;
    notice: HtmlValue;
    errors?: FieldErrors;
    editing?: string;
  }) {
    const { t } = frame;
    const users = await ports.listUsers(request.tenantId);
    const listed = [...new Set(users.flatMap((user) => (user.scope === 'all' ? [] : user.scope.stores)))];
    const { scope } = request.user;
    const [stores, groups, grantable, settings] = await Promise.all([
      ports.storeNames(request.tenantId, listed),
      ports.groups(request.tenantId),
      ports.storeChoices(request.tenantId, scope, MAX_CHOICES),
      ports.settings(request.tenantId),
    ]);
    const ownRegions = (settings.regions ?? []).filter((region) => scope === 'all' || (scope.regions ?? []).includes(region.id));
    const names: ScopeNames = { stores, groups: new Map(groups.map((group) => [group.id, group.name])) };
    const ownGroups = groups.filter((group) => scope === 'all' || scope.groups.includes(group.id));
    const choices: ScopeChoices = {
      stores: grantable,
      groups: ownGroups.length > MAX_CHOICES ? undefined : new Map(ownGroups.map((group) => [group.id, group.name])),
      regions: ownRegions.length > MAX_CHOICES ? undefined : new Map(ownRegions.map((region) => [region.id, region.name])),
    };
    const items = users.map((user, at) => userItem({ frame, request, user, at, editing: user.name === editing, names, choices }));
    const body = html`<h1>${t('admin.users')}</h1>
<p class="hint">${t('admin.users.usersIntro')}</p>
${notice}
<h2 id="users-title" class="visually-hidden">${t('admin.users')}</h2>
${users.length ? html`<ul class="items" id="users" aria-labelledby="users-title">${items}</ul>` : html`<p>${t('admin.users.noUsers')}</p>`}
${userForm({ frame, base: request.base, values, errors, choices })}`;
    return frame.page(status, t('admin.users'), body);
  }

  return { showUsers, saveUsers };
}

/** What the page says of a grant the service refused (shared/access/tenant-users.ts). */
const refusalText = (t: UsersFrame['t'], { refused }: GrantRefusedError) =>
  ({
    'own-scope': t('admin.users.selfScope'),
    'own-role': t('admin.users.selfRole'),
    scope: t('admin.users.widerScope'),
    role: t('admin.users.higherRole'),
    user: t('admin.users.widerUser'),
  })[refused];

const labelsOf = ({ t }: UsersFrame) => ({
  email: { label: t('admin.email'), id: 'u-email' },
  scope: { label: t('admin.scope'), id: 'u-scope' },
  role: { label: t('admin.users.role'), id: 'u-role' },
  phone: { label: t('admin.users.phone'), id: 'u-phone' },
});

const labelOf = (frame: UsersFrame, field: string) => {
  const label = labelsOf(frame)[field as 'email'];
  return label ? `${label.label}: ` : '';
};

/**
 * The stores, groups or regions of a scope: a checkbox for each one the admin may grant, by name (and one it names that is no
 * longer listed, by its code, so that saving keeps it), or the field of codes when there are more than a list holds.
 */
function listField(o: {
  id: string;
  name: 'stores' | 'groups' | 'regions';
  legend: string;
  codes: string;
  value: string;
  choices: Map<number, string> | undefined;
}) {
  if (!o.choices)
    return inputField({
      id: o.id,
      name: o.name,
      label: o.codes,
      value: o.value,
      errors: undefined,
      attributes: html` inputmode="numeric"`,
    });
  const ticked = idsOf(o.value);
  const unlisted = ticked.filter((id): id is number => typeof id === 'number' && !o.choices!.has(id)).map((id) => [id, `#${id}`] as const);
  const boxes = [...[...o.choices].sort(([, a], [, b]) => a.localeCompare(b)), ...unlisted];
  return (
    boxes.length > 0 &&
    html`<fieldset id="${o.id}"><legend>${o.legend}</legend><div class="checks">${boxes.map(
      ([id, name]) =>
        html`<label class="check"><input type="checkbox" name="${o.name}" value="${id}"${ticked.includes(id) ? ' checked' : ''}> ${name}</label>`,
    )}</div></fieldset>`
  );
}

/** The scope's radio and lists, for the invitation or for one user's change. */
function scopeFields({
  frame,
  id,
  values,
  errors,
  choices,
}: {
  frame: UsersFrame;
  id: string;
  values: UserValues;
  errors: FieldErrors | undefined;
  choices: ScopeChoices;
}) {
  const { t } = frame;
  const scope = fieldError({ errors, field: 'scope', id });
  return html`<fieldset id="${id}" tabindex="-1"${scope.attributes}><legend>${t('admin.scope')}</legend>
<label class="check"><input type="radio" name="scope" value="all"${values.every ? ' checked' : ''}> ${t('admin.users.scopeAll')}</label>
<label class="check"><input type="radio" name="scope" value="some"${values.every ? '' : ' checked'}> ${t('admin.users.scopeSome')}</label>
${listField({ id: `${id}-stores`, name: 'stores', legend: t('admin.users.storeNames'), codes: t('admin.users.stores'), value: values.stores, choices: choices.stores })}
${listField({ id: `${id}-groups`, name: 'groups', legend: t('admin.users.groupNames'), codes: t('admin.users.groups'), value: values.groups, choices: choices.groups })}
${listField({ id: `${id}-regions`, name: 'regions', legend: t('admin.users.regionNames'), codes: t('admin.users.regions'), value: values.regions, choices: choices.regions })}
${scope.html}</fieldset>`;
}

const roleField = ({ frame, id, value, errors }: { frame: UsersFrame; id: string; value: string; errors: FieldErrors | undefined }) =>
  selectField({
    id,
    name: 'role',
    label: frame.t('admin.users.role'),
    value,
    options: USER_ROLES.map((r) => [r, frame.t(`admin.users.roles.${r}`)] as const),
    errors,
  });

function userItem({
  frame,
  request,
  user,
  at,
  editing,
  names,
  choices,
}: {
  frame: UsersFrame;
  request: AdminPageRequest;
  user: UserView;
  at: number;
  editing: boolean;
  names: ScopeNames;
  choices: ScopeChoices;
}): SafeHtml {
  const { t } = frame;
  const self = user.name === request.user.name;
  // Neither one's own scope and role nor a user who sees more than the admin is theirs to change (the service's rule).
  const wider = !self && outsideScope(user.scope, request.user.scope) !== undefined;
  const scope =
    user.scope === 'all'
      ? t('admin.users.everyStore')
      : t('admin.users.someStores', {
          stores: user.scope.stores.map((id) => names.stores.get(id) ?? `#${id}`).join(', ') || '–',
          groups: user.scope.groups.map((id) => names.groups.get(id) ?? `#${id}`).join(', ') || '–',
        });
  const facts = [
    t(`admin.users.roles.${user.role}`),
    scope,
    ...(user.phone_last4 ? [t('admin.users.phoneLast4', { last4: user.phone_last4 })] : []),
    ...(user.disabled_at ? [t('admin.users.disabledAt', { at: frame.dateTime(user.disabled_at) })] : []),
  ];
  const action = request.base + APP_ADMIN_USERS_PATH;
  const current: UserValues = {
    email: '',
    every: user.scope === 'all',
    stores: user.scope === 'all' ? '' : user.scope.stores.join(', '),
    groups: user.scope === 'all' ? '' : user.scope.groups.join(', '),
    regions: user.scope === 'all' ? '' : (user.scope.regions ?? []).join(', '),
    role: user.role,
    phone: '',
  };
  const edit =
    self || wider
      ? ''
      : html`<details class="edit"${editing ? ' open' : ''}><summary>${t('admin.users.editUser')}<span class="visually-hidden"> ${user.name}</span></summary>
${postForm({
  action,
  fields: { action: 'update', name: user.name },
  inner: html`${scopeFields({ frame, id: `e${at}-scope`, values: current, errors: undefined, choices })}
${roleField({ frame, id: `e${at}-role`, value: user.role, errors: undefined })}
<div class="actions">${submitButton(t('admin.save'), user.name)}</div>`,
})}</details>`;
  // Only a person who signs in has an invitation; whether they signed in yet is Cognito's to say, asked on the press.
  const resend =
    self || wider || user.disabled_at || !signsIn(user.name)
      ? ''
      : postForm({
          action,
          fields: { action: 'resend', name: user.name },
          inner: submitButton(t('admin.users.resend'), user.name, 'quiet'),
        });
  const state = wider
    ? ''
    : user.disabled_at
      ? postForm({ action, fields: { action: 'enable', name: user.name }, inner: submitButton(t('admin.users.enable'), user.name) })
      : self
        ? ''
        : confirmedAction({
            action,
            fields: { action: 'disable', name: user.name },
            id: `disable-${at}`,
            label: t('admin.users.disable'),
            about: user.name,
            what: t('admin.users.disableWhat'),
            confirm: t('admin.users.disableConfirm'),
          });
  // The digest e-mail goes to those who sign in with an e-mail address: their choice, changed here as the users API does.
  const digest =
    wider || !signsIn(user.name)
      ? ''
      : postForm({
          action,
          fields: { action: 'digest', name: user.name },
          inner: html`${selectField({
            id: `d${at}-digest`,
            name: 'digest',
            label: t('admin.users.digest'),
            value: user.digest,
            options: DIGEST_CHOICES.map((choice) => [choice, t(`admin.users.digests.${choice}`)] as const),
            errors: undefined,
          })}<div class="actions">${submitButton(t('admin.users.saveDigest'), user.name, 'quiet')}</div>`,
          attributes: html` class="digest"`,
        });
  return html`<li class="card user${user.disabled_at ? ' inactive' : ''}">
<h3>${user.name}${self ? html` <span class="you">(${t('admin.users.you')})</span>` : ''}</h3>
<p>${facts.join(' · ')}</p>
${self ? html`<p class="hint">${t('admin.users.selfNote')}</p>` : ''}${wider ? html`<p class="hint">${t('admin.users.widerUser')}</p>` : ''}
${digest}
<div class="actions">${edit}${state}${resend}</div>
</li>`;
}

function userForm({
  frame,
  base,
  values,
  errors,
  choices,
}: {
  frame: UsersFrame;
  base: string;
  values: UserValues;
  errors: FieldErrors | undefined;
  choices: ScopeChoices;
}): SafeHtml {
  const { t } = frame;
  return html`<section class="card form" id="user-form" aria-labelledby="user-form-title">
<h2 id="user-form-title">${t('admin.users.newUser')}</h2>
${postForm({
  action: base + APP_ADMIN_USERS_PATH,
  fields: { action: 'create' },
  inner: html`${inputField({ id: 'u-email', name: 'email', label: t('admin.email'), value: values.email, errors, attributes: html` type="email" autocomplete="off" required maxlength="254"` })}
${scopeFields({ frame, id: 'u-scope', values, errors, choices })}
${roleField({ frame, id: 'u-role', value: values.role, errors })}
${inputField({ id: 'u-phone', name: 'phone', label: t('admin.users.phone'), value: values.phone, errors, hint: t('admin.users.phoneHint'), attributes: html` type="tel" autocomplete="off" maxlength="${MAX_PHONE_LENGTH}"` })}
<div class="actions">${submitButton(t('admin.users.invite'))}</div>`,
  attributes: html` novalidate`,
})}</section>`;
}
