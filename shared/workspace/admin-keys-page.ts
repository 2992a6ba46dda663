import * as v from 'valibot';
import { DomainError } from '../errors.js';
import { APP_ADMIN_KEYS_PATH } from '../session/paths.js';
import { escapeHtml } from '../surveys/compose.js';
import { KEY_SCOPES } from '../tenants/credentials.js';
import { NewKeyBody, RotateKeyBody, type IssuedKeyView, type KeyView, type tenantKeys } from '../tenants/keys.js';
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

/** The keys service of the admin API (shared/tenants/keys.ts). */
export type KeysPorts = Pick<AdminPagePorts, 'settings'> & ReturnType<typeof tenantKeys>;

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
 * expiry and last use; issue one (its value shown on the answer, once), revoke one, or replace one with a grace period
 * in which both work. A key's value is never in an address, a log or a later page.
 */
export function adminKeysPage(ports: KeysPorts) {
  async function showKeys(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame(ports, request, APP_ADMIN_KEYS_PATH);
    if (refused) return refused;
    const done = request.query.done === 'revoked' ? `<p class="saved" role="status">${escapeHtml(frame.text.revoked)}</p>` : '';
    return render(frame, request, 200, EMPTY, done);
  }

  async function saveKeys(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame(ports, request, APP_ADMIN_KEYS_PATH);
    if (refused) return refused;
    const { form, tenantId } = request;
    const actor = { user: request.user.name };
    const action = form.get('action');
    const sent: KeyValues = {
      name: (form.get('name') ?? '').trim(),
      scope: form.get('scope') ?? '',
      expires: form.get('expires_at') ?? '',
    };
    const errors: FieldErrors = new Map();
    try {
      if (action === 'revoke') {
        await ports.revokeKey(tenantId, form.get('id') ?? '', actor);
        return redirect(`${request.base}${APP_ADMIN_KEYS_PATH}?done=revoked`);
      }
      if (action === 'rotate') {
        const body = v.safeParse(RotateKeyBody, { grace_seconds: Number(form.get('grace_seconds')) });
        if (body.success) {
          const issued = await ports.rotateKey(tenantId, form.get('id') ?? '', body.output, actor);
          const until = frame.dateTime(issued.previous.expires_at!);
          return render(frame, request, 200, EMPTY, shownOnce(frame.text.rotatedKey(issued.previous.id, until), issued));
        }
        for (const issue of body.issues) addError(errors, '', `${frame.text.grace}: ${issue.message}`);
      } else {
        const expiry = expiryOf(sent.expires);
        const body = v.safeParse(NewKeyBody, { scope: sent.scope, name: sent.name, ...(expiry ? { expires_at: expiry } : {}) });
        if (body.success) {
          const issued = await ports.issueKey(tenantId, body.output, actor);
          return render(frame, request, 200, EMPTY, shownOnce(frame.text.issuedKey, issued));
        }
        for (const issue of body.issues) addError(errors, fieldOf(v.getDotPath(issue) ?? ''), issue.message);
      }
    } catch (error) {
      if (!(error instanceof DomainError) || !['validation', 'not-found', 'state-conflict'].includes(error.kind)) throw error;
      // The service's own refusals: an expiry in the past names its field; the others are the key's state.
      if (error.errors.length) for (const problem of error.errors) addError(errors, fieldOf(problem.path), problem.message);
      else addError(errors, '', error.message);
    }
    return render(frame, request, 400, sent, problemsBox(frame.text, { kind: 'invalid', errors }, labelsOf(frame), 'key-form'), errors);
  }

  async function render(
    frame: AdminFrame,
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

const labelsOf = ({ text }: AdminFrame) => ({
  name: { label: text.keyName, id: 'k-name' },
  scope: { label: text.keyScope, id: 'k-scope' },
  expires_at: { label: text.keyExpiry, id: 'k-expires_at' },
});

/** A new key's value, on this answer only. */
const shownOnce = (message: string, issued: IssuedKeyView) =>
  `<div class="saved" role="status"><p>${escapeHtml(message)}</p><p><code id="new-key" class="secret">${escapeHtml(issued.key)}</code></p></div>`;

function keyItem(frame: AdminFrame, base: string, key: KeyView): string {
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
  const forms = active
    ? `<div class="actions">${
        key.rotated_to
          ? ''
          : `<form method="post" action="${escapeHtml(action)}" class="inline"><input type="hidden" name="action" value="rotate"><input type="hidden" name="id" value="${escapeHtml(key.id)}">
<label for="grace-${escapeHtml(key.id)}">${escapeHtml(text.grace)}</label> <select id="grace-${escapeHtml(key.id)}" name="grace_seconds">${GRACES.map((g) => `<option value="${g}"${g === 86_400 ? ' selected' : ''}>${escapeHtml(text.graces[g]!)}</option>`).join('')}</select>
<button type="submit">${escapeHtml(text.rotate)}<span class="visually-hidden"> ${escapeHtml(name)}</span></button></form>`
      }<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="action" value="revoke"><input type="hidden" name="id" value="${escapeHtml(key.id)}">
<button type="submit" class="secondary">${escapeHtml(text.revoke)}<span class="visually-hidden"> ${escapeHtml(name)}</span></button></form></div>`
    : '';
  return `<li class="card key${active ? '' : ' inactive'}" id="key-${escapeHtml(key.id)}">
<h3>${key.name ? `${escapeHtml(key.name)} ` : ''}<code>${escapeHtml(key.id)}</code></h3>
<p>${escapeHtml(scope)} · ${facts.map(escapeHtml).join(' · ')}</p>
${forms}
</li>`;
}

function keyForm(frame: AdminFrame, base: string, values: KeyValues, errors: FieldErrors | undefined): string {
  const { text } = frame;
  const name = fieldError(errors, 'name', 'k-name', 'k-name-hint');
  const scope = fieldError(errors, 'scope', 'k-scope');
  const expires = fieldError(errors, 'expires_at', 'k-expires_at', 'k-expires_at-hint');
  return `<section class="card form" id="key-form" aria-labelledby="key-form-title">
<h2 id="key-form-title">${escapeHtml(text.newKey)}</h2>
<form method="post" action="${escapeHtml(base + APP_ADMIN_KEYS_PATH)}" novalidate><input type="hidden" name="action" value="issue">
<div class="field"><label for="k-name">${escapeHtml(text.keyName)}</label>
<input id="k-name" name="name" required maxlength="80" value="${escapeHtml(values.name)}"${name.attributes}${name.invalid}>
<p class="hint" id="k-name-hint">${escapeHtml(text.keyNameHint)}</p>${name.html}</div>
<div class="field"><label for="k-scope">${escapeHtml(text.keyScope)}</label>
<select id="k-scope" name="scope"${scope.attributes}${scope.invalid}>${KEY_SCOPES.map((s) => `<option value="${s}"${values.scope === s ? ' selected' : ''}>${escapeHtml(text.scopes[s])}</option>`).join('')}</select>${scope.html}</div>
<div class="field"><label for="k-expires_at">${escapeHtml(text.keyExpiry)}</label>
<input id="k-expires_at" name="expires_at" type="datetime-local" value="${escapeHtml(values.expires)}"${expires.attributes}${expires.invalid}>
<p class="hint" id="k-expires_at-hint">${escapeHtml(text.keyExpiryHint)}</p>${expires.html}</div>
<div class="actions"><button type="submit">${escapeHtml(text.issue)}</button></div>
</form></section>`;
}
