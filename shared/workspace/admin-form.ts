import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { html, type HtmlValue, type SafeHtml } from '../html.js';
import type { AdminPageKey } from '../i18n/catalogue.js';
import { ADMIN_GENERAL, adminTranslator, type AdminKey, type Translate } from '../i18n/messages.js';
import { timesOf } from '../i18n/times.js';
import type { Locale } from '../locale.js';
import { clearedShownOnce, SHOWN_ONCE_SECONDS, shownOnceCookie } from '../session/cookies.js';
import type { Sealer } from '../sealed.js';
import type { AuditActor, ConfigChange } from '../audit/log.js';
import { type ConfigDocument } from '../tenants/config-schema.js';
import type { Settings } from '../settings/settings.js';
import type { UserRecord } from '../access/ports.js';
import { adminRefusal } from '../access/capabilities.js';
import { redirect, type WebAnswer } from '../web-answer.js';
import { ADMIN_SECTIONS, openAdminSections } from './admin-sections.js';
import { layout, messageBody, tenantLookOf } from './layout.js';

/**
 * The tenant admins' pages change the configuration through the same service and schema as `PUT
 * /public/admin/config`: a form carries the version it was read at (the ETag) in a hidden field, and its change is
 * written only if the configuration is still at that version; otherwise nothing is written and the form comes back
 * with what was typed.
 */
export interface AdminPagePorts {
  readConfig(tenantId: number): Promise<{ config: ConfigDocument; version: number }>;
  replaceConfig(
    tenantId: number,
    change: { expected: number; config: ConfigDocument; actor: AuditActor },
  ): Promise<{ version: number; changes: ConfigChange[]; newEndpoints?: string[] }>;
  /** The tenant's language, time zone and brand. */
  settings(tenantId: number): Promise<Pick<Settings, 'brand' | 'delivery' | 'locale' | 'timeZone' | 'regions'>>;
}

export interface AdminPageRequest {
  tenantId: number;
  user: UserRecord;
  base: string;
  query: Record<string, string | undefined>;
  form: URLSearchParams;
  /** The shown-once cookie's value, as sent (a secret the post before made; shared/session/cookies.ts). */
  shownOnce?: string | undefined;
}

/** What wrong fields a form sent: each form field's messages; '' holds what belongs to no field. */
export type FieldErrors = Map<string, string[]>;

/** A signed-in admin's page: the words of the tenant's language (the shared ones and the page's own), its brand, and the page frame. */
export interface AdminFrame<Own extends AdminPageKey = AdminPageKey> {
  t: Translate<AdminKey | Own>;
  locale: Locale;
  page(status: number, title: string, body: SafeHtml): WebAnswer;
  /** The tenant's time zone. */
  timeZone: string;
  /** An instant as a person reads it: in the tenant's zone, the locale's way, the zone named. */
  dateTime(iso: string): string;
  /** A schema's or a service's message about a field, in the tenant's language. */
  say(message: string): string;
}

/** The form field that carries the configuration's version (its ETag). */
export const ETAG_FIELD = 'etag';

/**
 * The frame of an admin page for a signed-in user, or the 403 page a user the rule refuses the page gets (in the
 * tenant's language, with the navigation that user sees: only the admin pages they may open). `own`: the page's own
 * words (one of shared/i18n's ADMIN_* catalogues), beside the shared ones.
 */
export async function adminFrame<Own extends AdminPageKey>({
  ports,
  request,
  path,
  own,
}: {
  ports: Pick<AdminPagePorts, 'settings'>;
  request: AdminPageRequest;
  path: string;
  own: Record<Locale, Record<Own, string>>;
}): Promise<{ frame: AdminFrame<Own>; refused?: WebAnswer }> {
  const { locale, timeZone, brand } = tenantLookOf(await ports.settings(request.tenantId));
  const t = adminTranslator(locale, own);
  const open = openAdminSections(request.user);
  const home = open[0]?.path;
  const document = (title: string, body: SafeHtml) =>
    layout({ title, base: request.base, user: request.user.name, adminHome: home, current: home, locale, brand, body });
  const subnav =
    open.length > 0 &&
    html`<nav class="subnav" aria-label="${t('admin.admin')}"><ul>${open.map(
      (section) =>
        html`<li><a href="${request.base + section.path}"${section.path === path && html` aria-current="page"`}>${t(section.label)}</a></li>`,
    )}</ul></nav>`;
  const frame: AdminFrame<Own> = {
    t,
    locale,
    timeZone,
    page: (status, title, body) => ({ status, html: document(title, html`${subnav}${body}`) }),
    dateTime: timesOf(locale, timeZone).when,
    say: (message) => localMessage(t, message),
  };
  const area = ADMIN_SECTIONS.find((section) => section.path === path)?.area ?? 'tenant';
  const refusal = adminRefusal(request.user, area);
  if (!refusal) return { frame };
  const why = t(refusal === 'not-admin' ? 'admin.forbiddenText' : 'admin.everyStoreText');
  const title = t('admin.forbiddenTitle');
  return { frame, refused: { status: 403, html: document(title, html`${subnav}${messageBody(title, why)}`) } };
}

/** `/app/admin` alone: the first admin page the user may open, or the refusal a user who may open none gets. */
export async function openAdmin(ports: Pick<AdminPagePorts, 'settings'>, request: AdminPageRequest): Promise<WebAnswer> {
  const home = openAdminSections(request.user)[0];
  if (home) return redirect(request.base + home.path);
  const { frame, refused } = await adminFrame({ ports, request, path: ADMIN_SECTIONS[0]!.path, own: ADMIN_GENERAL });
  return (
    refused ??
    frame.page(403, frame.t('admin.forbiddenTitle'), messageBody(frame.t('admin.forbiddenTitle'), frame.t('admin.forbiddenText')))
  );
}

export function addError(errors: FieldErrors, field: string, message: string) {
  errors.set(field, [...(errors.get(field) ?? []), message]);
}

/** The hidden field that carries the configuration's version (its ETag) with the form. */
export const etagField = (version: number) => html`<input type="hidden" name="${ETAG_FIELD}" value="${version}">`;

/** The messages above a refused form: stale, or each wrong field (a link to its input) and what belongs to none. */
export function problemsBox({
  t,
  outcome,
  labels,
  formId,
}: {
  t: Translate<AdminKey>;
  outcome: { kind: 'stale' | 'invalid'; errors: FieldErrors };
  labels: Record<string, { label: string; id: string }>;
  formId: string;
}): SafeHtml {
  if (outcome.kind === 'stale')
    return html`<div class="error" role="alert" id="form-problems"><p>${t('admin.staleText')}</p><p><a href="#${formId}">${t('admin.toForm')}</a></p></div>`;
  const items = [...outcome.errors].flatMap(([field, messages]) =>
    messages.map((message) =>
      labels[field] ? html`<li><a href="#${labels[field].id}">${labels[field].label}</a>: ${message}</li>` : html`<li>${message}</li>`,
    ),
  );
  return html`<div class="error" role="alert" id="form-problems"><p>${t('admin.invalidText')}</p><ul>${items}</ul></div>`;
}

/** A field's error, next to its input: the paragraph, and the attributes its input (or fieldset) takes. */
export function fieldError({ errors, field, id, hintId }: { errors: FieldErrors | undefined; field: string; id: string; hintId?: string }) {
  const messages = errors?.get(field) ?? [];
  const described = [hintId, messages.length ? `${id}-error` : undefined].filter(Boolean).join(' ');
  return {
    attributes: described && html` aria-describedby="${described}"`,
    invalid: messages.length > 0 && html` aria-invalid="true"`,
    html: messages.length > 0 && html`<p class="field-error" id="${id}-error">${messages.join(' ')}</p>`,
  };
}

/**
 * The schemas' and the services' messages (English, as the API answers them) in the tenant's language: each known
 * message by its pattern; one this table does not know reads as a plain "not a valid value" rather than English.
 */
const MESSAGES: [RegExp, (t: Translate<AdminKey>, ...found: string[]) => string][] = [
  [/^must be at most (\d+) characters$/, (t, n) => t('admin.problems.tooLong', { n: n! })],
  [/^must be at least (\d+) characters$/, (t, n) => t('admin.problems.tooShort', { n: n! })],
  [/^must be at most (\d+)/, (t, n) => t('admin.problems.tooBig', { n: n! })],
  [/^must be (?:at least )?(\d+)(?: or more)?$/, (t, n) => t('admin.problems.tooSmall', { n: n! })],
  [/^(?:must not be empty|is required|is empty|must be a string)/, (t) => t('admin.problems.required')],
  [/^must be an? (?:integer|number|whole number)/, (t) => t('admin.problems.number')],
  [/^must be an e-mail address$/, (t) => t('admin.problems.email')],
  [/^must be one of /, (t) => t('admin.problems.choice')],
  [/^must list at least one /, (t) => t('admin.problems.listOne')],
  [/^must be in the future$/, (t) => t('admin.problems.future')],
  [/^must be https/, (t) => t('admin.problems.https')],
  [/^must be a URL$/, (t) => t('admin.problems.url')],
  [/^lists a URL twice/, (t) => t('admin.problems.urlTwice')],
  [/^must be lowercase letters, digits and dashes$/, (t) => t('admin.problems.slug')],
  [/^\S+ (.+) is defined twice$/, (t, value) => t('admin.problems.twice', { value: value! })],
  [/^class (\S+) is not defined in classes$/, (t, id) => t('admin.problems.unknownClass', { id: id! })],
  [/^must be a colour such as /, (t) => t('admin.problems.colour')],
  [
    /^has a contrast ratio of ([\d.]+):1 against the page background (#[0-9a-f]+).* at least ([\d.]+):1/,
    (t, ...[found, background, needed]) => t('admin.problems.contrast', { found: found!, background: background!, needed: needed! }),
  ],
  [/^must not contain (?:control or invisible characters|unpaired surrogates)$/, (t) => t('admin.problems.hidden')],
  [/^is not a PNG, JPEG or WebP image/, (t) => t('admin.problems.image')],
  [/^is an SVG/, (t) => t('admin.problems.svg')],
  [/^is too large$/, (t) => t('admin.problems.tooLarge')],
  [/^is (\d+) KB; at most (\d+) KB/, (t, size, max) => t('admin.problems.logoSize', { size: size!, max: max! })],
  [/^must be "all" or /, (t) => t('admin.problems.scope')],
  [/^A user with this email already exists/, (t) => t('admin.problems.duplicateUser')],
  [/^is not a phone number$/, (t) => t('admin.problems.phone')],
  [/^region (\d+) is itself in region (\d+)/, (t, region, parent) => t('admin.problems.twoLevels', { region: region!, parent: parent! })],
  [/^may list at most (\d+)/, (t, n) => t('admin.problems.tooMany', { n: n! })],
];

export function localMessage(t: Translate<AdminKey>, message: string): string {
  for (const [pattern, say] of MESSAGES) {
    const found = pattern.exec(message);
    if (found) return say(t, ...found.slice(1));
  }
  return t('admin.problems.invalid');
}

/** The hidden fields of a form. */
export const hiddenFields = (fields: Record<string, string>) =>
  Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);

/** A submit button; `about` (what it acts on) completes its name for a screen reader where the card shows it. */
/** A form's button: `secondary` for what removes or disables, `quiet` for an action beside the item's main one. */
export const submitButton = (label: string, about?: string, variant?: 'secondary' | 'quiet') =>
  html`<button type="submit"${variant && html` class="${variant}"`}>${label}${
    about ? html`<span class="visually-hidden"> ${about}</span>` : ''
  }</button>`;

/** A form posting hidden fields and `inner` (its inputs and button) to `action`. */
export const postForm = ({
  action,
  fields,
  inner,
  attributes,
}: {
  action: string;
  fields: Record<string, string>;
  inner: SafeHtml;
  attributes?: SafeHtml;
}) => html`<form method="post" action="${action}"${attributes}>${hiddenFields(fields)}${inner}</form>`;

const CONFIRM_FIELD = 'confirm';

/** Whether a form's confirmation box was ticked: an irreversible action is refused without it. */
export const confirmed = (form: URLSearchParams) => form.get(CONFIRM_FIELD) === 'yes';

/**
 * An action that takes something away (revoking a key, disabling a user) behind a confirmation that works without
 * JavaScript: it opens in place (details), says what it does, and the server refuses it unless its box is ticked.
 */
export function confirmedAction(o: {
  action: string;
  fields: Record<string, string>;
  id: string;
  label: string;
  about: string;
  what: string;
  confirm: string;
}): SafeHtml {
  return html`<details class="confirm"><summary>${o.label}<span class="visually-hidden"> ${o.about}</span></summary>
${postForm({
  action: o.action,
  fields: o.fields,
  inner: html`<p id="${o.id}-what">${o.what}</p>
<label class="check"><input type="checkbox" name="${CONFIRM_FIELD}" value="yes" id="${o.id}-confirm" aria-describedby="${o.id}-what"> ${o.confirm}</label>
${submitButton(o.label, o.about, 'secondary')}`,
})}</details>`;
}

/** A labelled input with its hint and its error. */
export function inputField(o: {
  id: string;
  name: string;
  label: string;
  value: string;
  errors: FieldErrors | undefined;
  field?: string;
  hint?: string;
  attributes?: SafeHtml;
}): SafeHtml {
  const error = fieldError({ errors: o.errors, field: o.field ?? o.name, id: o.id, hintId: o.hint ? `${o.id}-hint` : undefined });
  return html`<div class="field"><label for="${o.id}">${o.label}</label>
<input id="${o.id}" name="${o.name}" value="${o.value}"${o.attributes ?? ''}${error.attributes}${error.invalid}>${
    o.hint && html`\n<p class="hint" id="${o.id}-hint">${o.hint}</p>`
  }${error.html}</div>`;
}

/** A labelled select of `options` (value, words), `value` selected, with its error. */
export function selectField(o: {
  id: string;
  name: string;
  label: string;
  value: string;
  options: readonly (readonly [string, string])[];
  errors: FieldErrors | undefined;
}): SafeHtml {
  const error = fieldError({ errors: o.errors, field: o.name, id: o.id });
  return html`<div class="field"><label for="${o.id}">${o.label}</label>
<select id="${o.id}" name="${o.name}"${error.attributes}${error.invalid}>${o.options.map(
    ([value, words]) => html`<option value="${value}"${value === o.value && html` selected`}>${words}</option>`,
  )}</select>${error.html}</div>`;
}

/** What a post made and the page after it shows once: the secret, and the notice above it. */
const ShownOnce = v.strictObject({ notice: v.pipe(v.string(), v.maxLength(500)), secret: v.pipe(v.string(), v.maxLength(200)) });
export type ShownOnce = v.InferOutput<typeof ShownOnce>;
const SealedShownOnce = v.strictObject({ ...ShownOnce.entries, id: v.pipe(v.string(), v.uuid()), until: v.number() });

/**
 * The shown-once cookie, sealed (its value holds no readable secret) for one tenant, user and page, with an id and an
 * expiry; the page that shows it spends the id first, so a replayed cookie shows nothing.
 */
export interface ShownOncePorts {
  sealer: Sealer;
  /** Marks the id shown until `until` (then forgotten); false when it already was. */
  spend(tenantId: number, id: string, until: Date): Promise<boolean>;
}

const sealedFor = (request: AdminPageRequest, path: string) => JSON.stringify([request.tenantId, request.user.name, path]);

/** A post's answer that sends the browser to `path` (with `query`), carrying the secret in the shown-once cookie. */
export function redirectShowingOnce({
  ports,
  request,
  path,
  query,
  shown,
}: {
  ports: ShownOncePorts;
  request: AdminPageRequest;
  path: string;
  query: string;
  shown: ShownOnce;
}) {
  const sealed = ports.sealer.seal({ ...shown, id: randomUUID(), until: Date.now() + SHOWN_ONCE_SECONDS * 1000 }, sealedFor(request, path));
  return redirect(`${request.base}${path}?${query}`, [shownOnceCookie(request.base, path, sealed)]);
}

/** The secret the shown-once cookie carries, the first time it is read (undefined: none, not ours, expired, shown), and the cookie that clears it. */
export async function readShownOnce(
  ports: ShownOncePorts,
  request: AdminPageRequest,
  path: string,
): Promise<{ shown?: ShownOnce; cookies: string[] }> {
  if (!request.shownOnce) return { cookies: [] };
  const cookies = [clearedShownOnce(request.base, path)];
  const parsed = v.safeParse(SealedShownOnce, ports.sealer.open(request.shownOnce, sealedFor(request, path)));
  if (!parsed.success || parsed.output.until <= Date.now()) return { cookies };
  const { id, until, ...shown } = parsed.output;
  return (await ports.spend(request.tenantId, id, new Date(until))) ? { shown, cookies } : { cookies };
}

/**
 * The notice at the top of a page a post redirected to: the secret the post made, shown this once (the shown-once
 * cookie, which the answer clears), else the words of what `?done=` says was done, else none.
 */
export async function doneNotice({
  ports,
  request,
  path,
  boxId,
  said,
}: {
  ports: ShownOncePorts;
  request: AdminPageRequest;
  path: string;
  boxId: string;
  said: Record<string, string>;
}): Promise<{ notice: HtmlValue; cookies: string[] }> {
  const { shown, cookies } = await readShownOnce(ports, request, path);
  const done = request.query.done;
  const words = done !== undefined && Object.hasOwn(said, done) ? said[done] : undefined;
  const notice = shown ? shownOnceBox(shown, boxId) : words ? html`<p class="saved" role="status">${words}</p>` : '';
  return { notice, cookies };
}

/** The notice and the secret, on the one page that shows it. */
export const shownOnceBox = (shown: ShownOnce, id: string) =>
  html`<div class="saved" role="status"><p>${shown.notice}</p><p><code id="${id}" class="secret">${shown.secret}</code></p></div>`;
