import * as v from 'valibot';
import { DomainError } from '../errors.js';
import { APP_ADMIN_USERS_PATH } from '../session/paths.js';
import { escapeHtml } from '../surveys/compose.js';
import { USER_ROLES } from '../tenants/ports.js';
import { NewUserBody, type CreatedUserView, type tenantUsers, type UserView } from '../tenants/users.js';
import type { WebAnswer } from './answer.js';
import { redirect } from './answer.js';
import {
  addError,
  adminFrame,
  fieldError,
  problemsBox,
  type AdminFrame,
  type AdminPagePorts,
  type AdminPageRequest,
  type FieldErrors,
} from './admin-form.js';

/** The users service of `/public/admin/users` (shared/tenants/users.ts). */
export type UsersPorts = Pick<AdminPagePorts, 'settings'> & ReturnType<typeof tenantUsers>;

/** What the invitation form holds, as typed. */
interface UserValues {
  email: string;
  every: boolean;
  stores: string;
  groups: string;
  role: string;
}
const EMPTY: UserValues = { email: '', every: false, stores: '', groups: '', role: 'member' };

/** A comma-separated list of codes as numbers; anything else is left for the schema to name. */
const idsOf = (list: string) =>
  list
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean)
    .map((id) => (/^\d+$/.test(id) ? Number(id) : id));

const fieldOf = (path: string) => {
  const [field] = path.split('.');
  return field === 'email' || field === 'role' || field === 'scope' ? field! : '';
};

/**
 * The tenant admin's users (issue 34 §6) over the users service of `/public/admin/users`: each user's scope, role and
 * state; invite a manager (Cognito e-mails the invitation), make one an admin or a manager, disable or enable one.
 */
export function adminUsersPage(ports: UsersPorts) {
  async function showUsers(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame(ports, request, APP_ADMIN_USERS_PATH);
    if (refused) return refused;
    const done = request.query.done === 'changed' ? `<p class="saved" role="status">${escapeHtml(frame.text.changed)}</p>` : '';
    return render(frame, request, 200, EMPTY, done);
  }

  async function saveUsers(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame(ports, request, APP_ADMIN_USERS_PATH);
    if (refused) return refused;
    const { form, tenantId } = request;
    const actor = { user: request.user.name };
    const action = form.get('action');
    const sent: UserValues = {
      email: (form.get('email') ?? '').trim(),
      every: form.get('scope') === 'all',
      stores: form.get('stores') ?? '',
      groups: form.get('groups') ?? '',
      role: form.get('role') ?? '',
    };
    const errors: FieldErrors = new Map();
    try {
      if (action === 'role' || action === 'disable' || action === 'enable') {
        const name = form.get('name') ?? '';
        const role = USER_ROLES.find((r) => r === form.get('role'));
        await ports.updateUser(tenantId, name, action === 'role' ? (role ? { role } : {}) : { disabled: action === 'disable' }, actor);
        return redirect(`${request.base}${APP_ADMIN_USERS_PATH}?done=changed`);
      }
      const scope = sent.every ? 'all' : { stores: idsOf(sent.stores), groups: idsOf(sent.groups) };
      const body = v.safeParse(NewUserBody, { email: sent.email, scope, role: sent.role });
      if (body.success) {
        const created = await ports.createUser(tenantId, body.output, actor);
        return render(frame, request, 200, EMPTY, createdNotice(frame, created));
      }
      for (const issue of body.issues) addError(errors, fieldOf(v.getDotPath(issue) ?? ''), issue.message);
    } catch (error) {
      if (!(error instanceof DomainError) || !['validation', 'not-found', 'conflict'].includes(error.kind)) throw error;
      if (error.kind === 'conflict') addError(errors, 'email', error.message);
      else if (error.errors.length) for (const problem of error.errors) addError(errors, fieldOf(problem.path), problem.message);
      else addError(errors, '', error.message);
    }
    return render(frame, request, 400, sent, problemsBox(frame.text, { kind: 'invalid', errors }, labelsOf(frame), 'user-form'), errors);
  }

  async function render(
    frame: AdminFrame,
    request: AdminPageRequest,
    status: number,
    values: UserValues,
    notice: string,
    errors?: FieldErrors,
  ) {
    const { text } = frame;
    const users = await ports.listUsers(request.tenantId);
    const body = `<h1>${escapeHtml(text.users)}</h1>
<p class="hint">${escapeHtml(text.usersIntro)}</p>
${notice}
<h2 id="users-title" class="visually-hidden">${escapeHtml(text.users)}</h2>
${users.length ? `<ul class="items" id="users" aria-labelledby="users-title">${users.map((user) => userItem(frame, request.base, user)).join('')}</ul>` : `<p>${escapeHtml(text.noUsers)}</p>`}
${userForm(frame, request.base, values, errors)}`;
    return frame.page(status, text.users, body);
  }

  return { showUsers, saveUsers };
}

const labelsOf = ({ text }: AdminFrame) => ({
  email: { label: text.email, id: 'u-email' },
  scope: { label: text.scope, id: 'u-scope' },
  role: { label: text.role, id: 'u-role' },
});

const createdNotice = (frame: AdminFrame, created: CreatedUserView) =>
  `<div class="saved" role="status"><p>${escapeHtml(frame.text.invited(created.name))}</p><p>${escapeHtml(frame.text.userToken)}</p><p><code id="new-token" class="secret">${escapeHtml(created.token)}</code></p></div>`;

function userItem(frame: AdminFrame, base: string, user: UserView): string {
  const { text } = frame;
  const scope = user.scope === 'all' ? text.everyStore : text.someStores(user.scope.stores.join(', '), user.scope.groups.join(', '));
  const facts = [text.roles[user.role], scope, ...(user.disabled_at ? [text.disabledAt(frame.dateTime(user.disabled_at))] : [])];
  const action = escapeHtml(base + APP_ADMIN_USERS_PATH);
  const button = (fields: Record<string, string>, label: string, secondary = false) =>
    `<form method="post" action="${action}">${Object.entries(fields)
      .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
      .join(
        '',
      )}<button type="submit"${secondary ? ' class="secondary"' : ''}>${escapeHtml(label)}<span class="visually-hidden"> ${escapeHtml(user.name)}</span></button></form>`;
  const other = user.role === 'admin' ? 'member' : 'admin';
  return `<li class="card user${user.disabled_at ? ' inactive' : ''}">
<h3>${escapeHtml(user.name)}</h3>
<p>${facts.map(escapeHtml).join(' · ')}</p>
<div class="actions">${button({ action: 'role', name: user.name, role: other }, other === 'admin' ? text.makeAdmin : text.makeMember)}${
    user.disabled_at
      ? button({ action: 'enable', name: user.name }, text.enable)
      : button({ action: 'disable', name: user.name }, text.disable, true)
  }</div>
</li>`;
}

function userForm(frame: AdminFrame, base: string, values: UserValues, errors: FieldErrors | undefined): string {
  const { text } = frame;
  const email = fieldError(errors, 'email', 'u-email');
  const scope = fieldError(errors, 'scope', 'u-scope');
  const role = fieldError(errors, 'role', 'u-role');
  return `<section class="card form" id="user-form" aria-labelledby="user-form-title">
<h2 id="user-form-title">${escapeHtml(text.newUser)}</h2>
<form method="post" action="${escapeHtml(base + APP_ADMIN_USERS_PATH)}" novalidate><input type="hidden" name="action" value="create">
<div class="field"><label for="u-email">${escapeHtml(text.email)}</label>
<input id="u-email" name="email" type="email" autocomplete="off" required maxlength="254" value="${escapeHtml(values.email)}"${email.attributes}${email.invalid}>${email.html}</div>
<fieldset id="u-scope" tabindex="-1"${scope.attributes}><legend>${escapeHtml(text.scope)}</legend>
<label class="check"><input type="radio" name="scope" value="all"${values.every ? ' checked' : ''}> ${escapeHtml(text.scopeAll)}</label>
<label class="check"><input type="radio" name="scope" value="some"${values.every ? '' : ' checked'}> ${escapeHtml(text.scopeSome)}</label>
<div class="field"><label for="u-stores">${escapeHtml(text.stores)}</label><input id="u-stores" name="stores" inputmode="numeric" value="${escapeHtml(values.stores)}"></div>
<div class="field"><label for="u-groups">${escapeHtml(text.groups)}</label><input id="u-groups" name="groups" inputmode="numeric" value="${escapeHtml(values.groups)}"></div>
${scope.html}</fieldset>
<div class="field"><label for="u-role">${escapeHtml(text.role)}</label>
<select id="u-role" name="role"${role.attributes}${role.invalid}>${USER_ROLES.map((r) => `<option value="${r}"${values.role === r ? ' selected' : ''}>${escapeHtml(text.roles[r])}</option>`).join('')}</select>${role.html}</div>
<div class="actions"><button type="submit">${escapeHtml(text.invite)}</button></div>
</form></section>`;
}
