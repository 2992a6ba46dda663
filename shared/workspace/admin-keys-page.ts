import * as v from 'valibot';
import { DomainError, NotFoundError } from '../errors.js';
import { APP_ADMIN_KEYS_PATH } from '../session/paths.js';
import { escapeHtml } from '../surveys/compose.js';
import { KEY_SCOPES } from '../access/credentials.js';
import { KeyIdPath, NewKeyBody, RotateKeyBody, type KeyView, type apiKeys } from '../access/api-keys.js';
import { redirect, type WebAnswer } from './answer.js';
import {
  addError,
  adminFrame,
  confirmed,
  confirmedAction,
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
import type { AdminText } from './admin-text.js';
import { KEYS_TEXT, type KeysText } from './admin-keys-text.js';

/** This page's frame: the shared words and its own. */
export type KeysFrame = AdminFrame<AdminText & KeysText>;

/** The keys service of the admin API (shared/access/api-keys.ts). */
export type KeysPorts = Pick<AdminPagePorts, 'settings'> & ReturnType<typeof apiKeys> & { shownOnce: ShownOncePorts };

/** What the issue form holds, as typed. */
interface KeyValues {
  name: string;
  scope: string;
  expires: string;
}
const EMPTY: KeyValues = { name: '', scope: 'public', expires: '' };
const GRACES = [0, 3600, 86_400, 259_200, 604_800];

/** A `datetime-local` value, read as UTC (the label says so), as the API's expiry; empty: none. */
const expiryOf = (value: string) => (value ? (value.length === 16 ? `${value}:00Z` : `${value}Z`) : undefined);

/**
 * The tenant admin's API keys (issue 34 §6) over the keys service of `/public/admin/keys`: each key's name, scope,
 * expiry and last use; issue one, revoke one (once its confirmation is ticked), or replace one with a grace period in
 * which both work. A new key's value goes from the post to the page it redirects to in the shown-once cookie and is
 * shown there once, so a refresh neither posts again nor shows it again; it is never in an address, a log or a later
 * page.
 */
export function adminKeysPage(ports: KeysPorts) {
  async function showKeys(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame(ports, request, APP_ADMIN_KEYS_PATH, KEYS_TEXT);
    if (refused) return refused;
    const { text } = frame;
    const { notice, cookies } = await doneNotice(ports.shownOnce, request, APP_ADMIN_KEYS_PATH, 'new-key', {
      revoked: text.revoked,
      issued: text.issuedGone,
    });
    return { ...(await render(frame, request, 200, EMPTY, notice)), cookies };
  }

  async function saveKeys(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame(ports, request, APP_ADMIN_KEYS_PATH, KEYS_TEXT);
    if (refused) return refused;
    const { form, tenantId } = request;
    const { text } = frame;
    const actor = { user: request.user.name };
    const action = form.get('action');
    const sent: KeyValues = {
      name: (form.get('name') ?? '').trim(),
      scope: form.get('scope') ?? '',
      expires: form.get('expires_at') ?? '',
    };
    const errors: FieldErrors = new Map();
    // The key a form names, checked as the API checks its path: one that cannot be a key's id is no key of this tenant.
    const keyId = () => {
      const id = form.get('id') ?? '';
      if (!v.is(KeyIdPath, { id })) throw new NotFoundError('No such key.');
      return id;
    };
    try {
      if (action === 'revoke') {
        if (!confirmed(form)) addError(errors, '', text.confirmRequired);
        else {
          await ports.revokeKey(tenantId, keyId(), actor);
          return redirect(`${request.base}${APP_ADMIN_KEYS_PATH}?done=revoked`);
        }
      } else if (action === 'rotate') {
        const body = v.safeParse(RotateKeyBody, { grace_seconds: Number(form.get('grace_seconds')) });
        if (body.success) {
          const issued = await ports.rotateKey(tenantId, keyId(), body.output, actor);
          const notice = text.rotatedKey(issued.previous.id, frame.dateTime(issued.previous.expires_at!));
          return redirectShowingOnce(ports.shownOnce, request, APP_ADMIN_KEYS_PATH, 'done=issued', { notice, secret: issued.key });
        }
        for (const issue of body.issues) addError(errors, '', `${text.grace}: ${frame.say(issue.message)}`);
      } else {
        const expiry = expiryOf(sent.expires);
        const body = v.safeParse(NewKeyBody, { scope: sent.scope, name: sent.name, ...(expiry ? { expires_at: expiry } : {}) });
        if (body.success) {
          const issued = await ports.issueKey(tenantId, body.output, actor);
          return redirectShowingOnce(ports.shownOnce, request, APP_ADMIN_KEYS_PATH, 'done=issued', {
            notice: text.issuedKey,
            secret: issued.key,
          });
        }
        for (const issue of body.issues) addError(errors, fieldOf(v.getDotPath(issue) ?? ''), frame.say(issue.message));
      }
    } catch (error) {
      if (!(error instanceof DomainError) || !['validation', 'not-found', 'state-conflict'].includes(error.kind)) throw error;
      // The service's own refusals: an expiry in the past names its field; the others are the key's state.
      else if (error.errors.length) for (const problem of error.errors) addError(errors, fieldOf(problem.path), frame.say(problem.message));
      else addError(errors, '', text.keyGone);
    }
    return render(frame, request, 400, sent, problemsBox(text, { kind: 'invalid', errors }, labelsOf(frame), 'key-form'), errors);
  }

  async function render(
    frame: KeysFrame,
    request: AdminPageRequest,
    status: number,
    values: KeyValues,
    notice: string,
    errors?: FieldErrors,
  ) {
    const { text } = frame;
    const keys = await ports.listKeys(request.tenantId);
    const body = `<h1>${escapeHtml(text.keys)}</h1>
<p class="hint">${escapeHtml(text.keysIntro)}</p>
${notice}
<h2 id="keys-title">${escapeHtml(text.keyList)}</h2>
${keys.length ? `<ul class="items" id="keys" aria-labelledby="keys-title">${keys.map((key) => keyItem(frame, request.base, key)).join('')}</ul>` : `<p>${escapeHtml(text.noKeys)}</p>`}
${keyForm(frame, request.base, values, errors)}`;
    return frame.page(status, text.keys, body);
  }

  return { showKeys, saveKeys };
}

const fieldOf = (path: string) => (path === 'expires_at' ? 'expires_at' : path === 'name' || path === 'scope' ? path : '');

const labelsOf = ({ text }: KeysFrame) => ({
  name: { label: text.keyName, id: 'k-name' },
  scope: { label: text.keyScope, id: 'k-scope' },
  expires_at: { label: text.keyExpiry, id: 'k-expires_at' },
});

function keyItem(frame: KeysFrame, base: string, key: KeyView): string {
  const { text } = frame;
  const scope = (KEY_SCOPES as readonly string[]).includes(key.scope) ? text.scopes[key.scope as 'public'] : key.scope;
  const expired = key.expires_at !== null && Date.parse(key.expires_at) <= Date.now();
  const facts = [
    text.created(frame.dateTime(key.created_at)),
    key.last_used_at ? text.lastUsed(frame.dateTime(key.last_used_at)) : text.neverUsed,
    ...(key.expires_at ? [text.expires(frame.dateTime(key.expires_at))] : []),
    ...(key.revoked_at ? [text.revokedAt(frame.dateTime(key.revoked_at))] : []),
    ...(key.rotated_to ? [text.rotatedTo(key.rotated_to)] : []),
  ];
  const name = key.name ?? key.id;
  const action = base + APP_ADMIN_KEYS_PATH;
  const active = !key.revoked_at && !expired;
  const grace = `grace-${escapeHtml(key.id)}`;
  const rotate = key.rotated_to
    ? ''
    : postForm(
        action,
        { action: 'rotate', id: key.id },
        `<label for="${grace}">${escapeHtml(text.grace)}</label> <select id="${grace}" name="grace_seconds">${GRACES.map((g) => `<option value="${g}"${g === 86_400 ? ' selected' : ''}>${escapeHtml(text.graces[g]!)}</option>`).join('')}</select>
${submitButton(text.rotate, name)}`,
        ' class="inline"',
      );
  const revoke = confirmedAction({
    action,
    fields: { action: 'revoke', id: key.id },
    id: `revoke-${escapeHtml(key.id)}`,
    label: text.revoke,
    about: name,
    what: text.revokeWhat,
    confirm: text.revokeConfirm,
  });
  return `<li class="card key${active ? '' : ' inactive'}" id="key-${escapeHtml(key.id)}">
<h3>${key.name ? `${escapeHtml(key.name)} ` : ''}<code>${escapeHtml(key.id)}</code></h3>
<p>${escapeHtml(scope)} · ${facts.map(escapeHtml).join(' · ')}</p>
${active ? `<div class="actions">${rotate}${revoke}</div>` : ''}
</li>`;
}

function keyForm(frame: KeysFrame, base: string, values: KeyValues, errors: FieldErrors | undefined): string {
  const { text } = frame;
  return `<section class="card form" id="key-form" aria-labelledby="key-form-title">
<h2 id="key-form-title">${escapeHtml(text.newKey)}</h2>
${postForm(
  base + APP_ADMIN_KEYS_PATH,
  { action: 'issue' },
  `${inputField({ id: 'k-name', name: 'name', label: text.keyName, value: values.name, errors, hint: text.keyNameHint, attributes: ' required maxlength="80"' })}
${selectField({ id: 'k-scope', name: 'scope', label: text.keyScope, value: values.scope, options: KEY_SCOPES.map((s) => [s, text.scopes[s]] as const), errors })}
${inputField({ id: 'k-expires_at', name: 'expires_at', label: text.keyExpiry, value: values.expires, errors, hint: text.keyExpiryHint, attributes: ' type="datetime-local"' })}
<div class="actions">${submitButton(text.issue)}</div>`,
  ' novalidate',
)}</section>`;
}
