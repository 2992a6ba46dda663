import { html, type SafeHtml } from '../html.js';
import type { AdminThemesKey } from '../i18n/catalogue.js';
import { ADMIN_THEMES } from '../i18n/messages.js';
import { addDays, dayOf } from '../dates.js';
import { LOCALES, type Locale } from '../locale.js';
import { APP_ADMIN_THEMES_PATH } from '../session/paths.js';
import { type ConfigDocument } from '../tenants/config-schema.js';
import { areDefaultThemes, DEFAULT_THEMES, MAX_KEYWORD_LENGTH, MAX_KEYWORDS, themesOf, type Theme } from '../themes/theme.js';
import { localeOfLanguage } from '../themes/themes.js';
import type { Suggestion } from '../themes/suggestions.js';
import type { UserRecord } from '../access/ports.js';
import { redirect, type WebAnswer } from '../web-answer.js';
import {
  adminFrame,
  etagField,
  fieldError,
  postForm,
  problemsBox,
  submitButton,
  type AdminFrame,
  type AdminPagePorts,
  type AdminPageRequest,
  type FieldErrors,
} from './admin-form.js';
import type { changeConfig as ConfigChange, ChangeOutcome } from './admin-config-form.js';

type ThemesFrame = AdminFrame<AdminThemesKey>;

export interface ThemesPagePorts extends AdminPagePorts {
  /** The key phrases of a period no theme covers (GET /public/themes/suggestions' service), as the user may see them. */
  suggestions(tenantId: number, query: { from: string; to: string }, user: Promise<UserRecord>): Promise<Suggestion[]>;
}

/** The days whose suggestions the page shows: the last 30, today included. */
const SUGGESTION_DAYS = 30;

/** What the theme form holds, as typed: a theme read, or the fields a refused form sent back. */
interface ThemeValues {
  /** The slug of the theme it edits; absent, a new theme. */
  original?: string | undefined;
  slug: string;
  name: Partial<Record<Locale, string>>;
  /** Each language's keywords as the textarea holds them: one a line. */
  keywords: Partial<Record<Locale, string>>;
  /** Each language's exclusions, the same way. */
  exclude: Partial<Record<Locale, string>>;
}

const NAME = (locale: Locale) => `name.${locale}`;
const KEYWORDS = (locale: Locale) => `keywords.${locale}`;
const EXCLUDE = (locale: Locale) => `exclude.${locale}`;
const EMPTY: ThemeValues = { slug: '', name: {}, keywords: {}, exclude: {} };

const valuesOf = (theme: Theme): ThemeValues => ({
  original: theme.slug,
  slug: theme.slug,
  name: { ...theme.name },
  keywords: Object.fromEntries(LOCALES.map((locale) => [locale, (theme.keywords[locale] ?? []).join('\n')])),
  exclude: Object.fromEntries(LOCALES.map((locale) => [locale, (theme.exclude?.[locale] ?? []).join('\n')])),
});

const valuesFrom = (form: URLSearchParams): ThemeValues => ({
  original: form.get('original') || undefined,
  slug: (form.get('slug') ?? '').trim(),
  name: Object.fromEntries(LOCALES.map((locale) => [locale, (form.get(NAME(locale)) ?? '').trim()])),
  keywords: Object.fromEntries(LOCALES.map((locale) => [locale, form.get(KEYWORDS(locale)) ?? ''])),
  exclude: Object.fromEntries(LOCALES.map((locale) => [locale, form.get(EXCLUDE(locale)) ?? ''])),
});

/** A textarea's keywords: one a line or separated by commas, trimmed, each once. */
export const keywordsOf = (text: string): string[] => [
  ...new Set(
    text
      .split(/[\n,]/)
      .map((word) => word.trim())
      .filter(Boolean),
  ),
];

/** A theme's slug made of a phrase: its letters without accents, lower-cased, words joined by dashes. */
export const slugOf = (phrase: string): string =>
  phrase
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 40)
    .replace(/^-+|-+$/g, '');

const themeOf = (values: ThemeValues): unknown => {
  const exclude = Object.fromEntries(LOCALES.map((locale) => [locale, keywordsOf(values.exclude[locale] ?? '')]));
  return {
    slug: values.slug,
    name: values.name,
    keywords: Object.fromEntries(LOCALES.map((locale) => [locale, keywordsOf(values.keywords[locale] ?? '')])),
    // Left out when empty, so that a theme without exclusions reads back as it was written.
    ...(Object.values(exclude).some((list) => list.length) ? { exclude } : {}),
  };
};

/**
 * A form's change to the themes (the tenant's own, or the defaults it starts from): `delete` one, add a suggestion's
 * `keyword` to one, or save one as the form describes it (new, or over the one it edits). The schema checks the
 * result (undefined: the theme to delete or to add to is not there). Deleting the last theme brings back the defaults.
 */
export function changeThemes(
  themes: readonly Theme[],
  form: URLSearchParams,
): { themes: unknown[] | undefined; index: number; values: ThemeValues } {
  const action = form.get('action');
  const list: unknown[] = [...themes];
  if (action === 'delete') {
    const kept = themes.filter((theme) => theme.slug !== form.get('slug'));
    if (kept.length === themes.length) return { themes: undefined, index: -1, values: EMPTY };
    return { themes: kept.length ? kept : [...DEFAULT_THEMES], index: -1, values: EMPTY };
  }
  if (action === 'keyword') {
    const index = themes.findIndex((theme) => theme.slug === form.get('theme'));
    const locale = localeOfLanguage(form.get('language') ?? '') ?? 'pt-BR';
    const theme = themes[index];
    if (!theme) return { themes: undefined, index: -1, values: EMPTY };
    const keywords = { ...theme.keywords, [locale]: keywordsOf([...theme.keywords[locale], form.get('phrase') ?? ''].join('\n')) };
    list[index] = { ...theme, keywords };
    return { themes: list, index, values: valuesOf(list[index] as Theme) };
  }
  const values = valuesFrom(form);
  let index = themes.findIndex((theme) => values.original !== undefined && theme.slug === values.original);
  if (index < 0) index = themes.length;
  list[index] = themeOf(values);
  return { themes: list, index, values };
}

/**
 * The tenant admin's themes page (issue 47): the themes (or the defaults, marked as such) with their names and keywords
 * in each language, a form to add or edit one, and the period's suggestions, each a theme or a keyword in one step.
 */
export function adminThemesPage(ports: ThemesPagePorts) {
  async function showThemes(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_THEMES_PATH, own: ADMIN_THEMES });
    if (refused) return refused;
    const { config, version } = await ports.readConfig(request.tenantId);
    const editing = themesOf(config).find((theme) => theme.slug === request.query.edit);
    const notice = request.query.saved
      ? frame.t('admin.themes.saved', { slug: request.query.saved })
      : request.query.deleted && frame.t('admin.themes.deleted', { slug: request.query.deleted });
    return render({
      frame,
      request,
      ports,
      status: 200,
      config,
      version,
      values: editing ? valuesOf(editing) : EMPTY,
      outcome: undefined,
      notice: notice || undefined,
    });
  }

  return { showThemes };
}

/** The form's post, through the configuration change of the other admin pages (its version check and audit). */
export function adminThemesForm(ports: ThemesPagePorts, changeConfig: typeof ConfigChange) {
  async function saveTheme(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_THEMES_PATH, own: ADMIN_THEMES });
    if (refused) return refused;
    let change = { index: -1, values: EMPTY } as ReturnType<typeof changeThemes>;
    const outcome = await changeConfig(ports, {
      request,
      change: (config) => {
        change = changeThemes(themesOf(config), request.form);
        return change.themes ? { ...config, themes: change.themes } : new Map([['', [frame.t('admin.themes.noSuchTheme')]]]);
      },
      fieldOf: (path) => {
        const [list, at, field, language] = path.split('.');
        if (list !== 'themes' || Number(at) !== change.index || !field) return '';
        return field === 'slug' ? field : `${field}.${language}`;
      },
      say: frame.say,
    });
    if (outcome.kind === 'saved') {
      const said =
        request.form.get('action') === 'delete'
          ? `deleted=${encodeURIComponent(request.form.get('slug') ?? '')}`
          : `saved=${encodeURIComponent(change.values.slug)}`;
      return redirect(`${request.base}${APP_ADMIN_THEMES_PATH}?${said}`);
    }
    const status = outcome.kind === 'stale' ? 409 : 400;
    return render({ frame, request, ports, status, config: outcome.config, version: outcome.version, values: change.values, outcome });
  }

  return { saveTheme };
}

async function render({
  frame,
  request,
  ports,
  status,
  config,
  version,
  values,
  outcome,
  notice,
}: {
  frame: ThemesFrame;
  request: AdminPageRequest;
  ports: ThemesPagePorts;
  status: number;
  config: ConfigDocument;
  version: number;
  values: ThemeValues;
  outcome?: Exclude<ChangeOutcome, { kind: 'saved' }>;
  notice?: string;
}): Promise<WebAnswer> {
  const { t } = frame;
  const to = dayOf(Date.now());
  const from = addDays(to, 1 - SUGGESTION_DAYS);
  const suggestions = await ports.suggestions(request.tenantId, { from, to }, Promise.resolve(request.user));
  const themes = themesOf(config);
  const body = html`<h1>${t('admin.themes')}</h1>
<p class="hint">${t('admin.themes.intro')}</p>
${notice ? html`<p class="saved" role="status">${notice}</p>` : ''}
${outcome ? problemsBox({ t: frame.t, outcome, labels: labelsOf(frame), formId: 'theme-form' }) : ''}
<p><a href="#theme-form">${t('admin.themes.newTheme')}</a> · <a href="#suggestions-title">${t('admin.themes.suggestions')}</a></p>
<h2 id="themes-title">${t('admin.themes.list')}</h2>
${areDefaultThemes(themes) ? html`<p class="hint">${t('admin.themes.defaults')}</p>` : ''}
<ul class="items" aria-labelledby="themes-title">${themes.map((theme) => themeItem({ frame, base: request.base, version, theme }))}</ul>
${themeForm({ frame, base: request.base, version, values, errors: outcome?.errors })}
${suggestionList({ frame, base: request.base, version, themes, suggestions, period: { from, to } })}`;
  return frame.page(status, t('admin.themes'), body);
}

function themeItem({ frame, base, version, theme }: { frame: ThemesFrame; base: string; version: number; theme: Theme }): SafeHtml {
  const { t } = frame;
  const name = theme.name[frame.locale];
  return html`<li class="card" id="theme-${theme.slug}">
<h3>${name} <code>${theme.slug}</code></h3>
<ul class="texts">${LOCALES.map(
    (locale) =>
      html`<li><span class="hint">${t(`admin.themes.languages.${locale}`)}:</span> <span lang="${locale}"><strong>${theme.name[locale]}</strong> — ${
        theme.keywords[locale].length ? theme.keywords[locale].join(', ') : t('admin.themes.noKeywords')
      }</span>${exclusionsOf(frame, theme, locale)}</li>`,
  )}</ul>
${postForm({
  action: base + APP_ADMIN_THEMES_PATH,
  fields: { etag: String(version), action: 'delete', slug: theme.slug },
  inner: html`<a href="${`${base}${APP_ADMIN_THEMES_PATH}?edit=${encodeURIComponent(theme.slug)}#theme-form`}">${t('admin.themes.edit')}<span class="visually-hidden"> ${name}</span></a>
${submitButton(t('admin.themes.delete'), name, 'secondary')}`,
  attributes: html` class="actions"`,
})}
</li>`;
}

/** A theme's exclusions in one language, after its keywords (nothing when it has none there). */
function exclusionsOf({ t }: ThemesFrame, theme: Theme, locale: Locale): SafeHtml | '' {
  const words = theme.exclude?.[locale] ?? [];
  return words.length
    ? html`<br><span class="hint">${t('admin.themes.excludeListed')}</span> <span lang="${locale}">${words.join(', ')}</span>`
    : '';
}

/** Each form field's label and input id, for the problems box's links. */
const labelsOf = ({ t }: ThemesFrame): Record<string, { label: string; id: string }> => ({
  slug: { label: t('admin.slug'), id: 't-slug' },
  ...Object.fromEntries(
    LOCALES.flatMap((locale) => [
      [NAME(locale), { label: `${t('admin.themes.name')} (${t(`admin.themes.languages.${locale}`)})`, id: `t-name-${locale}` }],
      [KEYWORDS(locale), { label: `${t('admin.themes.keywords')} (${t(`admin.themes.languages.${locale}`)})`, id: `t-keywords-${locale}` }],
      [EXCLUDE(locale), { label: `${t('admin.themes.exclude')} (${t(`admin.themes.languages.${locale}`)})`, id: `t-exclude-${locale}` }],
    ]),
  ),
});

function themeForm({
  frame,
  base,
  version,
  values,
  errors,
}: {
  frame: ThemesFrame;
  base: string;
  version: number;
  values: ThemeValues;
  errors: FieldErrors | undefined;
}): SafeHtml {
  const { t } = frame;
  const editing = values.original !== undefined;
  const slugError = fieldError({ errors, field: 'slug', id: 't-slug', hintId: 't-slug-hint' });
  const perLocale = (field: 'name' | 'keywords' | 'exclude', locale: Locale) => {
    const id = `t-${field}-${locale}`;
    const hintId = field === 'name' ? undefined : `t-${field}-hint`;
    const error = fieldError({ errors, field: `${field}.${locale}`, id, hintId });
    const label = t(`admin.themes.languages.${locale}`);
    const value = values[field][locale] ?? '';
    return field === 'name'
      ? html`<div class="field"><label for="${id}">${label}</label><input id="${id}" name="${NAME(locale)}" value="${value}" required maxlength="100" lang="${locale}"${error.attributes}${error.invalid}>${error.html}</div>`
      : html`<div class="field"><label for="${id}">${label}</label><textarea id="${id}" name="${field === 'keywords' ? KEYWORDS(locale) : EXCLUDE(locale)}" rows="${field === 'keywords' ? 4 : 2}" lang="${locale}"${error.attributes}${error.invalid}>${value}</textarea>${error.html}</div>`;
  };
  const title = editing ? t('admin.themes.editTheme', { name: values.name[frame.locale] || values.slug }) : t('admin.themes.newTheme');
  return html`<section class="card form" id="theme-form" aria-labelledby="theme-form-title">
<h2 id="theme-form-title">${title}</h2>
<form method="post" action="${base + APP_ADMIN_THEMES_PATH}" novalidate>
${etagField(version)}${editing ? html`<input type="hidden" name="original" value="${values.original!}">` : ''}
<div class="field"><label for="t-slug">${t('admin.slug')}</label>
<input id="t-slug" name="slug" value="${values.slug}" required maxlength="40" autocapitalize="none" spellcheck="false"${slugError.attributes}${slugError.invalid}>
<p class="hint" id="t-slug-hint">${t('admin.themes.slugHint')}</p>${slugError.html}</div>
<fieldset><legend>${t('admin.themes.name')}</legend>${LOCALES.map((locale) => perLocale('name', locale))}</fieldset>
<fieldset><legend>${t('admin.themes.keywords')}</legend><p class="hint" id="t-keywords-hint">${t('admin.themes.keywordsHint', { max: MAX_KEYWORDS, length: MAX_KEYWORD_LENGTH })}</p>
${LOCALES.map((locale) => perLocale('keywords', locale))}</fieldset>
<fieldset><legend>${t('admin.themes.exclude')}</legend><p class="hint" id="t-exclude-hint">${t('admin.themes.excludeHint', { max: MAX_KEYWORDS, length: MAX_KEYWORD_LENGTH })}</p>
${LOCALES.map((locale) => perLocale('exclude', locale))}</fieldset>
<div class="actions"><button type="submit">${t('admin.save')}</button>${
    editing ? html` <a href="${base + APP_ADMIN_THEMES_PATH}#theme-form">${t('admin.themes.cancelEdit')}</a>` : ''
  }</div>
</form></section>`;
}

function suggestionList({
  frame,
  base,
  version,
  themes,
  suggestions,
  period,
}: {
  frame: ThemesFrame;
  base: string;
  version: number;
  themes: readonly Theme[];
  suggestions: Suggestion[];
  period: { from: string; to: string };
}): SafeHtml {
  const { t } = frame;
  const action = base + APP_ADMIN_THEMES_PATH;
  const items = suggestions.map((suggestion, at) => {
    const locale = localeOfLanguage(suggestion.language) ?? frame.locale;
    const example = suggestion.examples[0];
    const asTheme = {
      etag: String(version),
      slug: slugOf(suggestion.phrase),
      ...Object.fromEntries(LOCALES.map((l) => [NAME(l), suggestion.phrase])),
      [KEYWORDS(locale)]: suggestion.phrase,
    };
    const asKeyword = { etag: String(version), action: 'keyword', phrase: suggestion.phrase, language: suggestion.language };
    return html`<li class="card">
<h3 lang="${locale}">${suggestion.phrase}</h3>
<p>${t('admin.themes.count', { count: suggestion.count })}${example === undefined ? '' : html` · ${t('admin.themes.example', { id: example })}`}</p>
${postForm({ action, fields: asTheme, inner: submitButton(t('admin.themes.asTheme'), suggestion.phrase) })}
${postForm({
  action,
  fields: asKeyword,
  inner: html`<label for="s-${at}-theme">${t('admin.themes.asKeyword')}</label> <select id="s-${at}-theme" name="theme">${themes.map(
    (theme) => html`<option value="${theme.slug}">${theme.name[frame.locale]}</option>`,
  )}</select>
${submitButton(t('admin.themes.addKeyword'), suggestion.phrase, 'quiet')}`,
  attributes: html` class="inline"`,
})}
</li>`;
  });
  return html`<section aria-labelledby="suggestions-title">
<h2 id="suggestions-title">${t('admin.themes.suggestions')}</h2>
<p class="hint">${t('admin.themes.suggestionsIntro', { from: period.from, to: period.to })}</p>
${items.length ? html`<ul class="items">${items}</ul>` : html`<p>${t('admin.themes.noSuggestions')}</p>`}
</section>`;
}
