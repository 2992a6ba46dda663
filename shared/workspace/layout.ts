import { FAVICON_LINK } from '../favicon.js';
import { escapeHtml } from '../surveys/compose.js';
import { APP_ADMIN_JOURNEYS_PATH, APP_ANSWERS_PATH, APP_RESULTS_PATH, SIGN_OUT_PATH } from '../session/paths.js';
import { DEFAULT_LOCALE, type Locale } from '../locale.js';
import type { Brand } from '../tenants/brand.js';

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

/** The workspace's sections, in the order the navigation shows them; `admin` ones only to the tenant's admins. */
export const SECTIONS: readonly { label: string; path: string; admin?: true }[] = [
  { label: 'Respostas', path: APP_ANSWERS_PATH },
  { label: 'Resultados', path: APP_RESULTS_PATH },
  { label: 'Admin', path: APP_ADMIN_JOURNEYS_PATH, admin: true },
];

export interface Layout {
  title: string;
  /** The stage's path prefix ('' at the root). */
  base: string;
  body: string;
  /** The signed-in user's name, for the header and its sign-out button; absent on the sign-in pages. */
  user?: string | undefined;
  /** The section the page belongs to, for the navigation. */
  current?: string | undefined;
  /** Scripts of the reference's assets the page runs (the chart). */
  scripts?: readonly string[];
  /** Whether the user is a tenant admin (isTenantAdmin): the navigation shows the admin section. */
  admin?: boolean | undefined;
  /** The page's language; pt-BR when absent. */
  locale?: Locale | undefined;
  /** The tenant's brand for the header (its name and logo); the service's name when absent. */
  brand?: Pick<Brand, 'name' | 'logoUrl'> | undefined;
}

export function layout({ title, base, body, user, current, scripts = [], admin = false, locale = DEFAULT_LOCALE, brand }: Layout): string {
  const nav = user
    ? `<nav aria-label="Seções"><ul>${SECTIONS.filter((section) => admin || !section.admin)
        .map(
          (section) =>
            `<li><a href="${escapeHtml(base + section.path)}"${section.path === current ? ' aria-current="page"' : ''}>${escapeHtml(section.label)}</a></li>`,
        )
        .join('')}</ul></nav>
<form method="post" action="${escapeHtml(base + SIGN_OUT_PATH)}" class="sign-out"><span>${escapeHtml(user)}</span> <button type="submit">Sair</button></form>`
    : '';
  return `<!doctype html>
<html lang="${escapeHtml(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><title>${escapeHtml(title)} · pesquisa de satisfação</title>${FAVICON_LINK}
<link rel="stylesheet" href="${escapeHtml(base)}/assets/app.css"></head>
<body><header class="top"><p class="brand">${brandMark(base, brand)}</p>${nav}</header>
<main>${body}</main>${scripts.map((script) => `<script src="${escapeHtml(base)}/assets/${escapeHtml(script)}"></script>`).join('')}</body></html>
`;
}

/** The header's name: the tenant's brand (its logo beside it, decorative) or the service's. */
const brandMark = (base: string, brand: Layout['brand']) =>
  brand
    ? `${brand.logoUrl ? `<img src="${escapeHtml(base + brand.logoUrl)}" alt="" class="logo">` : ''}${escapeHtml(brand.name)}`
    : 'Pesquisa de satisfação';

/** A page that only says something (an error, a refusal). */
export const messageBody = (title: string, text: string) => `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`;
