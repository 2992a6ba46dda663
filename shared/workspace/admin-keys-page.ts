import * as v from 'valibot';
import { html, type HtmlValue, type SafeHtml } from '../html.js';
import type { AdminKeysKey } from '../i18n/catalogue.js';
import { ADMIN_KEYS } from '../i18n/messages.js';
import { DomainError, NotFoundError } from '../errors.js';
import { instantAt } from '../cases/deadline.js';
import { APP_ADMIN_KEYS_PATH } from '../session/paths.js';
import { KEY_SCOPES } from '../access/credentials.js';
import { KeyIdPath, NewKeyBody, RotateKeyBody, type KeyView, type apiKeys } from '../access/api-keys.js';
import { redirect, type WebAnswer } from '../web-answer.js';
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

/** This page's frame: the shared words and its own. */
export type KeysFrame = AdminFrame<AdminKeysKey>;

/** The keys service of the admin API (shared/access/api-keys.ts). */
export type KeysPorts = Pick<AdminPagePorts, 'settings'> & ReturnType<typeof apiKeys> & { shownOnce: ShownOncePorts };

/** What the issue form holds, as typed. */
interface KeyValues {
  name: string;
  scope: string;
  expires: string;
}
const EMPTY: KeyValues = { name: '', scope: 'public', expires: '' };
const GRACES = [0, 3600, 86_400, 259_200, 604_800] as const;

/**
 * A `datetime-local` value, read in the tenant's time zone (the label names it), as the API's expiry (UTC); empty:
 * none; anything else as sent, for the schema to refuse.
 */
export function expiryOf(value: string, zone: string): string | undefined {
  const found = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!found) return value || undefined;
  const [, day, hours, minutes, seconds = '0'] = found;
  const at = instantAt(Date.parse(`${day}T00:00:00Z`), Number(hours) * 60 + Number(minutes), zone) + Number(seconds) * 1000;
  return Number.isNaN(at) ? value : new Date(at).toISOString();
}

/**
 * The tenant admin's API keys (issue 34 §6) over the keys service of `/public/admin/keys`: each key's name, scope,
 * expiry and last use; issue one, revoke one (once its confirmation is ticked), or replace one with a grace period in
 * which both work. A new key's value goes from the post to the page it redirects to in the shown-once cookie and is
 * shown there once, so a refresh neither posts again nor shows it again; it is never in an address, a log or a later
 * page.
 */
export function adminKeysPage(ports: KeysPorts) {
  async function showKeys(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_KEYS_PATH, own: ADMIN_KEYS });
    if (refused) return refused;
    const { t } = frame;
    const { notice, cookies } = await doneNotice({
      ports: ports.shownOnce,
      request,
      path: APP_ADMIN_KEYS_PATH,
      boxId: 'new-key',
      said: {
        revoked: t('admin.keys.revoked'),
        issued: t('admin.keys.issuedGone'),
      },
    });
    return { ...(await render({ frame, request, status: 200, values: EMPTY, notice })), cookies };
  }

  async function saveKeys(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_KEYS_PATH, own: ADMIN_KEYS });
    if (refused) return refused;
    const { form, tenantId } = request;
    const { t } = frame;
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
        if (!confirmed(form)) addError(errors, '', t('admin.confirmRequired'));
        else {
          await ports.revokeKey(tenantId, { keyId: keyId(), actor });
          return redirect(`${request.base}${APP_ADMIN_KEYS_PATH}?done=revoked`);
        }
      } else if (action === 'rotate') {
        const body = v.safeParse(RotateKeyBody, { grace_seconds: Number(form.get('grace_seconds')) });
        if (body.success) {
          const issued = await ports.rotateKey(tenantId, { keyId: keyId(), body: body.output, actor });
          const notice = t('admin.keys.rotatedKey', { id: issued.previous.id, until: frame.dateTime(issued.previous.expires_at!) });
          return redirectShowingOnce({
            ports: ports.shownOnce,
            request,
            path: APP_ADMIN_KEYS_PATH,
            query: 'done=issued',
            shown: { notice, secret: issued.key },
          });
        }
        for (const issue of body.issues) addError(errors, '', `${t('admin.keys.grace')}: ${frame.say(issue.message)}`);
      } else {
        const expiry = expiryOf(sent.expires, frame.timeZone);
        const body = v.safeParse(NewKeyBody, { scope: sent.scope, name: sent.name, ...(expiry ? { expires_at: expiry } : {}) });
        if (body.success) {
          const issued = await ports.issueKey(tenantId, { body: body.output, actor });
          return redirectShowingOnce({
            ports: ports.shownOnce,
            request,
            path: APP_ADMIN_KEYS_PATH,
            query: 'done=issued',
            shown: {
              notice: t('admin.keys.issuedKey'),
              secret: issued.key,
            },
          });
        }
        for (const issue of body.issues) addError(errors, fieldOf(v.getDotPath(issue) ?? ''), frame.say(issue.message));
      }
    } catch (error) {
      if (!(error instanceof DomainError) || !['validation', 'not-found', 'state-conflict'].includes(error.kind)) throw error;
      // The service's own refusals: an expiry in the past names its field; the others are the key's state.
      else if (error.errors.length) for (const problem of error.errors) addError(errors, fieldOf(problem.path), frame.say(problem.message));
      else addError(errors, '', t('admin.keys.keyGone'));
    }
    return render({
      frame,
      request,
      status: 400,
      values: sent,
      notice: problemsBox({ t: frame.t, outcome: { kind: 'invalid', errors }, labels: labelsOf(frame), formId: 'key-form' }),
      errors,
    });
  }

  async function render({
    frame,
    request,
    status,
    values,
    notice,
    errors,
  }: {
    frame: KeysFrame;
    request: AdminPageRequest;
    status: number;
    values: KeyValues;
    notice: HtmlValue;
    errors?: FieldErrors;
  }) {
    const { t } = frame;
    const keys = await ports.listKeys(request.tenantId);
    const body = html`<h1>${t('admin.keys')}</h1>
<p class="hint">${t('admin.keys.keysIntro')}</p>
${notice}
<h2 id="keys-title">${t('admin.keys.keyList')}</h2>
${keys.length ? html`<ul class="items" id="keys" aria-labelledby="keys-title">${keys.map((key) => keyItem(frame, request.base, key))}</ul>` : html`<p>${t('admin.keys.noKeys')}</p>`}
${keyForm({ frame, base: request.base, values, errors })}`;
    return frame.page(status, t('admin.keys'), body);
  }

  return { showKeys, saveKeys };
}

const fieldOf = (path: string) => (path === 'expires_at' ? 'expires_at' : path === 'name' || path === 'scope' ? path : '');

const labelsOf = ({ t, timeZone }: KeysFrame) => ({
  name: { label: t('admin.keys.keyName'), id: 'k-name' },
  scope: { label: t('admin.keys.keyScope'), id: 'k-scope' },
  expires_at: { label: t('admin.keys.keyExpiry', { zone: timeZone }), id: 'k-expires_at' },
});

function keyItem(frame: KeysFrame, base: string, key: KeyView): SafeHtml {
  const { t } = frame;
  const scope = (KEY_SCOPES as readonly string[]).includes(key.scope) ? t(`admin.keys.scopes.${key.scope as 'public'}`) : key.scope;
  const expired = key.expires_at !== null && Date.parse(key.expires_at) <= Date.now();
  const facts = [
    t('admin.keys.created', { at: frame.dateTime(key.created_at) }),
    key.last_used_at ? t('admin.keys.lastUsed', { at: frame.dateTime(key.last_used_at) }) : t('admin.keys.neverUsed'),
    ...(key.expires_at ? [t('admin.keys.expires', { at: frame.dateTime(key.expires_at) })] : []),
    ...(key.revoked_at ? [t('admin.keys.revokedAt', { at: frame.dateTime(key.revoked_at) })] : []),
    ...(key.rotated_to ? [t('admin.keys.rotatedTo', { id: key.rotated_to })] : []),
  ];
  const name = key.name ?? key.id;
  const action = base + APP_ADMIN_KEYS_PATH;
  const active = !key.revoked_at && !expired;
  const grace = `grace-${key.id}`;
  const rotate = key.rotated_to
    ? ''
    : postForm({
        action,
        fields: { action: 'rotate', id: key.id },
        inner: html`<label for="${grace}">${t('admin.keys.grace')}</label> <select id="${grace}" name="grace_seconds">${GRACES.map((g) => html`<option value="${g}"${g === 86_400 ? ' selected' : ''}>${t(`admin.keys.graces.${g}`)}</option>`)}</select>
${submitButton(t('admin.keys.rotate'), name)}`,
        attributes: html` class="inline"`,
      });
  const revoke = confirmedAction({
    action,
    fields: { action: 'revoke', id: key.id },
    id: `revoke-${key.id}`,
    label: t('admin.keys.revoke'),
    about: name,
    what: t('admin.keys.revokeWhat'),
    confirm: t('admin.keys.revokeConfirm'),
  });
  return html`<li class="card key${active ? '' : ' inactive'}" id="key-${key.id}">
<h3>${key.name ? `${key.name} ` : ''}<code>${key.id}</code></h3>
<p>${scope} · ${facts.join(' · ')}</p>
${active ? html`<div class="actions">${rotate}${revoke}</div>` : ''}
</li>`;
}

function keyForm({
  frame,
  base,
  values,
  errors,
}: {
  frame: KeysFrame;
  base: string;
  values: KeyValues;
  errors: FieldErrors | undefined;
}): SafeHtml {
  const { t } = frame;
  return html`<section class="card form" id="key-form" aria-labelledby="key-form-title">
<h2 id="key-form-title">${t('admin.keys.newKey')}</h2>
${postForm({
  action: base + APP_ADMIN_KEYS_PATH,
  fields: { action: 'issue' },
  inner: html`${inputField({ id: 'k-name', name: 'name', label: t('admin.keys.keyName'), value: values.name, errors, hint: t('admin.keys.keyNameHint'), attributes: html` required maxlength="80"` })}
${selectField({ id: 'k-scope', name: 'scope', label: t('admin.keys.keyScope'), value: values.scope, options: KEY_SCOPES.map((s) => [s, t(`admin.keys.scopes.${s}`)] as const), errors })}
${inputField({ id: 'k-expires_at', name: 'expires_at', label: t('admin.keys.keyExpiry', { zone: frame.timeZone }), value: values.expires, errors, hint: t('admin.keys.keyExpiryHint'), attributes: html` type="datetime-local"` })}
<div class="actions">${submitButton(t('admin.keys.issue'))}</div>`,
  attributes: html` novalidate`,
})}</section>`;
}
