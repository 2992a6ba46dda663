import { FAVICON_LINK } from '../favicon.js';
import { workspaceTranslator as translator, type WorkspaceKey } from '../i18n/messages.js';
import { logoPath } from '../brand/brand.js';
import { DEFAULT_LOCALE, timeZoneOf, type Locale } from '../locale.js';
import type { Settings } from '../settings/settings.js';
import { html, type SafeHtml } from '../html.js';
import { APP_ANSWERS_PATH, APP_CASES_PATH, APP_DIGEST_PATH, APP_RESULTS_PATH, SIGN_OUT_PATH } from '../session/paths.js';

/**
 * The workspace's pages, server-rendered: pt-BR, mobile-first, complete without JavaScript (only the trend chart
 * needs it). One stylesheet and one script, served by the public API's reference function beside Chart.js, so that
 * the policy admits `'self'` only.
 */
export const WORKSPACE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  // Not no-referrer: under it browsers send `Origin: null` with a form post, and posts are checked by their Origin.
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** The workspace's sections, in the order the navigation shows them; the admin section after them (Layout's adminHome). */
export const SECTIONS: readonly { label: WorkspaceKey; path: string }[] = [
  { label: 'workspace.section.answers', path: APP_ANSWERS_PATH },
  { label: 'workspace.section.results', path: APP_RESULTS_PATH },
  { label: 'workspace.section.cases', path: APP_CASES_PATH },
  { label: 'workspace.section.digest', path: APP_DIGEST_PATH },
];

export interface Layout {
  title: string;
  /** The stage's path prefix ('' at the root). */
  base: string;
  body: SafeHtml;
  /** The signed-in user's name, for the header and its sign-out button; absent on the sign-in pages. */
  user?: string | undefined;
  /** The section the page belongs to, for the navigation. */
  current?: string | undefined;
  /** Scripts of the reference's assets the page runs (the chart). */
  scripts?: readonly string[];
  /** The tenant's language (its `locale`); pt-BR when absent. */
  locale?: Locale | undefined;
  /** The tenant's brand: its name, and its logo (served by this API, so the policy's `'self'` admits it). */
  brand?: { name: string; logoUrl?: string | undefined } | undefined;
  /** The admin page the user may open first (admin-form.ts adminHome): the navigation's Admin link; none without. */
  adminHome?: string | undefined;
}

/** How a tenant's pages look and read: its language, its time zone and its brand (name, logo). */
export interface TenantLook {
  locale: Locale;
  timeZone: string;
  brand: { name: string; logoUrl?: string | undefined };
}

/** The tenant's look from its settings, with the defaults of each (pt-BR, America/Sao_Paulo, the tenant's name). */
export function tenantLookOf(settings: Pick<Settings, 'brand' | 'locale' | 'timeZone'>): TenantLook {
  const { brand } = settings;
  return {
    locale: settings.locale ?? DEFAULT_LOCALE,
    timeZone: timeZoneOf(settings),
    brand: { name: brand?.name ?? '', logoUrl: brand?.logo && logoPath(brand.logo.file) },
  };
}

/** The page's document: the workspace's frame around `body`. */
export function layout({ title, base, body, user, current, scripts = [], locale = DEFAULT_LOCALE, brand, adminHome }: Layout): string {
  const t = translator(locale);
  const product = t('workspace.product');
  const sections = adminHome ? [...SECTIONS, { label: 'workspace.section.admin' as const, path: adminHome }] : SECTIONS;
  const nav = user
    ? html`<nav aria-label="${t('workspace.sections')}"><ul>${sections.map(
        (section) =>
          html`<li><a href="${base + section.path}"${section.path === current && html` aria-current="page"`}>${t(section.label)}</a></li>`,
      )}</ul></nav>
<form method="post" action="${base + SIGN_OUT_PATH}" class="sign-out"><span>${user}</span> <button type="submit">${t('workspace.signOut')}</button></form>`
    : '';
  // The logo is the brand's name to a screen reader, so the name beside it is not read twice.
  const logo = brand?.logoUrl && html`<img src="${base + brand.logoUrl}" alt="" height="28">`;
  const heading = brand?.name ? html`${logo}<span>${brand.name}</span>` : product;
  return html`<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><meta name="description" content="${t('workspace.description')}">
<title>${title} · ${brand?.name || product.toLowerCase()}</title>${FAVICON_LINK}
<link rel="stylesheet" href="${base}/assets/app.css"></head>
<body><header class="top"><p class="brand">${heading}</p>${nav}</header>
<main>${body}</main>${scripts.map((script) => html`<script src="${base}/assets/${script}"></script>`)}</body></html>
`.toString();
}

/** A page that only says something (an error, a refusal). */
export const messageBody = (title: string, text: string) => html`<h1>${title}</h1><p>${text}</p>`;
