import * as v from 'valibot';
import { PreconditionFailedError } from '../errors.js';
import { DEFAULT_LOCALE, type Locale } from '../locale.js';
import { APP_ADMIN_JOURNEYS_PATH, APP_ADMIN_KEYS_PATH, APP_ADMIN_USERS_PATH, APP_ADMIN_WEBHOOKS_PATH } from '../session/paths.js';
import { escapeHtml } from '../surveys/compose.js';
import type { AuditActor } from '../tenants/audit.js';
import { brandOf } from '../tenants/brand.js';
import { ConfigDocument, type Settings } from '../tenants/config-schema.js';
import type { ConfigChange } from '../tenants/configuration.js';
import type { UserRecord } from '../tenants/ports.js';
import { isTenantAdmin } from '../tenants/roles.js';
import type { WebAnswer } from './answer.js';
import { ADMIN_TEXT, type AdminText } from './admin-text.js';
import { layout, messageBody } from './layout.js';

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
    expected: number,
    config: ConfigDocument,
    actor: AuditActor,
  ): Promise<{ version: number; changes: ConfigChange[] }>;
  /** The tenant's language and brand. */
  settings(tenantId: number): Promise<Pick<Settings, 'brand' | 'delivery' | 'locale'>>;
}

export interface AdminPageRequest {
  tenantId: number;
  user: UserRecord;
  base: string;
  query: Record<string, string | undefined>;
  form: URLSearchParams;
}

/** What wrong fields a form sent: each form field's messages; '' holds what belongs to no field. */
export type FieldErrors = Map<string, string[]>;

/** A signed-in admin's page: the words of the tenant's language, its brand, and the page frame. */
export interface AdminFrame {
  text: AdminText;
  locale: Locale;
  page(status: number, title: string, body: string): WebAnswer;
  /** An instant as the tenant's language writes it, in UTC (said so). */
  dateTime(iso: string): string;
}

const ETAG_FIELD = 'etag';

/** The subsections of the admin pages, for their own navigation. */
const SUBSECTIONS = [
  { path: APP_ADMIN_JOURNEYS_PATH, label: (text: AdminText) => text.journeys },
  { path: APP_ADMIN_WEBHOOKS_PATH, label: (text: AdminText) => text.webhooks },
  { path: APP_ADMIN_USERS_PATH, label: (text: AdminText) => text.users },
  { path: APP_ADMIN_KEYS_PATH, label: (text: AdminText) => text.keys },
];

/**
 * The frame of an admin page for a signed-in user, or the 403 page a user who is not a tenant admin gets (in the
 * tenant's language, with the navigation that user sees).
 */
export async function adminFrame(
  ports: Pick<AdminPagePorts, 'settings'>,
  request: AdminPageRequest,
  path: string,
): Promise<{ frame: AdminFrame; refused?: WebAnswer }> {
  const settings = await ports.settings(request.tenantId);
  const locale = settings.locale ?? DEFAULT_LOCALE;
  const text = ADMIN_TEXT[locale];
  const brand = brandOf(settings);
  const admin = isTenantAdmin(request.user);
  const html = (title: string, body: string) =>
    layout({ title, base: request.base, user: request.user.name, admin, current: APP_ADMIN_JOURNEYS_PATH, locale, brand, body });
  const subnav = `<nav class="subnav" aria-label="${escapeHtml(text.admin)}"><ul>${SUBSECTIONS.map(
    (section) =>
      `<li><a href="${escapeHtml(request.base + section.path)}"${section.path === path ? ' aria-current="page"' : ''}>${escapeHtml(section.label(text))}</a></li>`,
  ).join('')}</ul></nav>`;
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short', timeZone: 'UTC' });
  const frame: AdminFrame = {
    text,
    locale,
    page: (status, title, body) => ({ status, html: html(title, subnav + body) }),
    dateTime: (iso) => `${when.format(new Date(iso))} UTC`,
  };
  if (admin) return { frame };
  return { frame, refused: { status: 403, html: html(text.forbiddenTitle, messageBody(text.forbiddenTitle, text.forbiddenText)) } };
}

/** What became of a form's change. */
export type ChangeOutcome = { kind: 'saved' } | { kind: 'stale' | 'invalid'; errors: FieldErrors; config: ConfigDocument; version: number };

/**
 * Applies a form's change to the configuration it was read at: `change` builds the whole new document from the
 * current one (or answers the field errors it found itself), the tenant file's schema checks it, and `fieldOf` names
 * the form field of each wrong path. Written only if still at the form's version, by the signed-in admin.
 */
export async function changeConfig(
  ports: Pick<AdminPagePorts, 'readConfig' | 'replaceConfig'>,
  request: AdminPageRequest,
  change: (config: ConfigDocument) => unknown,
  fieldOf: (path: string) => string,
): Promise<ChangeOutcome> {
  const current = await ports.readConfig(request.tenantId);
  const stale = async (): Promise<ChangeOutcome> => ({ kind: 'stale', errors: new Map(), ...(await ports.readConfig(request.tenantId)) });
  if (request.form.get(ETAG_FIELD) !== String(current.version)) return { kind: 'stale', errors: new Map(), ...current };
  const candidate = change(current.config);
  if (candidate instanceof Map) return { kind: 'invalid', errors: candidate as FieldErrors, ...current };
  const parsed = v.safeParse(ConfigDocument, candidate);
  if (!parsed.success) {
    const errors: FieldErrors = new Map();
    for (const issue of parsed.issues) addError(errors, fieldOf(v.getDotPath(issue) ?? ''), issue.message);
    return { kind: 'invalid', errors, ...current };
  }
  try {
    await ports.replaceConfig(request.tenantId, current.version, parsed.output, { user: request.user.name });
  } catch (error) {
    // Another change claimed the version between the read and the write.
    if (error instanceof PreconditionFailedError) return stale();
    throw error;
  }
  return { kind: 'saved' };
}

export function addError(errors: FieldErrors, field: string, message: string) {
  errors.set(field, [...(errors.get(field) ?? []), message]);
}

/** The hidden field that carries the configuration's version (its ETag) with the form. */
export const etagField = (version: number) => `<input type="hidden" name="${ETAG_FIELD}" value="${version}">`;

/** The messages above a refused form: stale, or each wrong field (a link to its input) and what belongs to none. */
export function problemsBox(
  text: AdminText,
  outcome: { kind: 'stale' | 'invalid'; errors: FieldErrors },
  labels: Record<string, { label: string; id: string }>,
  formId: string,
): string {
  if (outcome.kind === 'stale')
    return `<div class="error" role="alert" id="form-problems"><p>${escapeHtml(text.staleText)}</p><p><a href="#${escapeHtml(formId)}">${escapeHtml(text.toForm)}</a></p></div>`;
  const items = [...outcome.errors].flatMap(([field, messages]) =>
    messages.map((message) =>
      labels[field]
        ? `<li><a href="#${escapeHtml(labels[field].id)}">${escapeHtml(labels[field].label)}</a>: ${escapeHtml(message)}</li>`
        : `<li>${escapeHtml(message)}</li>`,
    ),
  );
  return `<div class="error" role="alert" id="form-problems"><p>${escapeHtml(text.invalidText)}</p><ul>${items.join('')}</ul></div>`;
}

/** A field's error, next to its input: the paragraph, and the attributes its input (or fieldset) takes. */
export function fieldError(errors: FieldErrors | undefined, field: string, id: string, hintId?: string) {
  const messages = errors?.get(field) ?? [];
  const described = [hintId, messages.length ? `${id}-error` : undefined].filter(Boolean).join(' ');
  return {
    attributes: `${described ? ` aria-describedby="${described}"` : ''}`,
    invalid: messages.length ? ' aria-invalid="true"' : '',
    html: messages.length ? `<p class="field-error" id="${id}-error">${messages.map(escapeHtml).join(' ')}</p>` : '',
  };
}
