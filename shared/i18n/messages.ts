import { DEFAULT_LOCALE, LOCALES, type Locale } from '../locale.js';
import type {
  AdminBrandCatalogue,
  AdminCatalogue,
  AdminGeneralCatalogue,
  AdminJourneysCatalogue,
  AdminRegionsCatalogue,
  AdminThemesCatalogue,
  AdminInStoreCatalogue,
  AdminKey,
  AdminKeysCatalogue,
  AdminPageKey,
  AdminUsersCatalogue,
  AdminWebhooksCatalogue,
  AlertCatalogue,
  AlertKey,
  Catalogue,
  CustomerCatalogue,
  CustomerKey,
  MessageKey,
  WorkspaceCatalogue,
  WorkspaceKey,
} from './catalogue.js';
import {
  enAdmin,
  enAdminBrand,
  enAdminGeneral,
  enAdminJourneys,
  enAdminRegions,
  enAdminThemes,
  enAdminInStore,
  enAdminKeys,
  enAdminUsers,
  enAdminWebhooks,
  enAlerts,
  enCustomer,
  enWorkspace,
} from './en.js';
import {
  esAdmin,
  esAdminBrand,
  esAdminGeneral,
  esAdminJourneys,
  esAdminRegions,
  esAdminThemes,
  esAdminInStore,
  esAdminKeys,
  esAdminUsers,
  esAdminWebhooks,
  esAlerts,
  esCustomer,
  esWorkspace,
} from './es.js';
import {
  ptBRAdmin,
  ptBRAdminBrand,
  ptBRAdminGeneral,
  ptBRAdminJourneys,
  ptBRAdminRegions,
  ptBRAdminThemes,
  ptBRAdminInStore,
  ptBRAdminKeys,
  ptBRAdminUsers,
  ptBRAdminWebhooks,
  ptBRAlerts,
  ptBRCustomer,
  ptBRWorkspace,
} from './pt-BR.js';
import { formatMessage, parseMessage } from './message-format.js';

export type { AdminKey, AlertKey, CustomerKey, MessageKey, WorkspaceKey };

/**
 * The message catalogues, one per locale, in ICU MessageFormat (the part message-format.ts formats: plurals, selects
 * and numbers by the locale's own rules). Arguments are plain text; HTML callers escape what they get back.
 */

// One object per area, so that a function bundles the three languages of only the words it shows.
const CUSTOMER: Record<Locale, CustomerCatalogue> = { 'pt-BR': ptBRCustomer, es: esCustomer, en: enCustomer };
const WORKSPACE: Record<Locale, WorkspaceCatalogue> = { 'pt-BR': ptBRWorkspace, es: esWorkspace, en: enWorkspace };
const ALERTS: Record<Locale, AlertCatalogue> = { 'pt-BR': ptBRAlerts, es: esAlerts, en: enAlerts };
const ADMIN: Record<Locale, AdminCatalogue> = { 'pt-BR': ptBRAdmin, es: esAdmin, en: enAdmin };
/** Each admin page's own words, beside the ones they share (ADMIN). */
export const ADMIN_BRAND: Record<Locale, AdminBrandCatalogue> = { 'pt-BR': ptBRAdminBrand, es: esAdminBrand, en: enAdminBrand };
export const ADMIN_GENERAL: Record<Locale, AdminGeneralCatalogue> = {
  'pt-BR': ptBRAdminGeneral,
  es: esAdminGeneral,
  en: enAdminGeneral,
};
export const ADMIN_JOURNEYS: Record<Locale, AdminJourneysCatalogue> = {
  'pt-BR': ptBRAdminJourneys,
  es: esAdminJourneys,
  en: enAdminJourneys,
};
export const ADMIN_REGIONS: Record<Locale, AdminRegionsCatalogue> = {
  'pt-BR': ptBRAdminRegions,
  es: esAdminRegions,
  en: enAdminRegions,
};
export const ADMIN_KEYS: Record<Locale, AdminKeysCatalogue> = { 'pt-BR': ptBRAdminKeys, es: esAdminKeys, en: enAdminKeys };
export const ADMIN_THEMES: Record<Locale, AdminThemesCatalogue> = {
  'pt-BR': ptBRAdminThemes,
  es: esAdminThemes,
  en: enAdminThemes,
};
export const ADMIN_IN_STORE: Record<Locale, AdminInStoreCatalogue> = {
  'pt-BR': ptBRAdminInStore,
  es: esAdminInStore,
  en: enAdminInStore,
};
export const ADMIN_USERS: Record<Locale, AdminUsersCatalogue> = { 'pt-BR': ptBRAdminUsers, es: esAdminUsers, en: enAdminUsers };
export const ADMIN_WEBHOOKS: Record<Locale, AdminWebhooksCatalogue> = {
  'pt-BR': ptBRAdminWebhooks,
  es: esAdminWebhooks,
  en: enAdminWebhooks,
};

/** Every message of a locale, every area (the catalogue tests compare them). */
export const catalogueOf = (locale: Locale): Catalogue => ({
  ...CUSTOMER[locale],
  ...WORKSPACE[locale],
  ...ALERTS[locale],
  ...ADMIN[locale],
  ...ADMIN_BRAND[locale],
  ...ADMIN_GENERAL[locale],
  ...ADMIN_JOURNEYS[locale],
  ...ADMIN_REGIONS[locale],
  ...ADMIN_KEYS[locale],
  ...ADMIN_THEMES[locale],
  ...ADMIN_USERS[locale],
  ...ADMIN_WEBHOOKS[locale],
  ...ADMIN_IN_STORE[locale],
});

export type MessageArgs = Record<string, string | number>;
export type Translate<K extends MessageKey = CustomerKey> = (key: K, args?: MessageArgs) => string;

const parsed = new Map<string, ReturnType<typeof parseMessage>>();

/** The messages of a catalogue in its locale; each is parsed once per container, on first use. */
function translate<K extends MessageKey>(catalogue: Record<K, string>, locale: Locale): Translate<K> {
  return (key, args) => {
    const id = `${locale}\u0000${key}`;
    const parts = parsed.get(id) ?? parsed.set(id, parseMessage(catalogue[key])).get(id)!;
    return formatMessage({ parts, locale, values: args });
  };
}

/** A customer's words in a locale. */
export const translator = (locale: Locale): Translate => translate(CUSTOMER[locale], locale);
/** The workspace's words in a locale. */
export const workspaceTranslator = (locale: Locale): Translate<WorkspaceKey> => translate(WORKSPACE[locale], locale);
/** The case alerts' words in a locale. */
export const alertTranslator = (locale: Locale): Translate<AlertKey> => translate(ALERTS[locale], locale);
/** An admin page's words in a locale: the ones every admin page shares and the page's own (one of the ADMIN_* catalogues). */
export const adminTranslator = <Own extends AdminPageKey>(
  locale: Locale,
  own: Record<Locale, Record<Own, string>>,
): Translate<AdminKey | Own> => translate<AdminKey | Own>({ ...ADMIN[locale], ...own[locale] }, locale);

/** Each language named in itself (a choice of language reads the same whatever the page's language). */
export const LANGUAGE_NAMES: Record<Locale, string> = { 'pt-BR': 'Português (Brasil)', es: 'Español', en: 'English' };

export const isLocale = (value: unknown): value is Locale => (LOCALES as readonly unknown[]).includes(value);

/** The survey's language: the customer's, else the journey's, else the tenant's, else pt-BR. */
export const chooseLocale = (...preferences: (Locale | null | undefined)[]): Locale =>
  preferences.find((locale): locale is Locale => isLocale(locale)) ?? DEFAULT_LOCALE;

/**
 * The locale of a request with no survey behind it (a broken link, a failure before the link was read): the first
 * language of Accept-Language the service speaks, by quality, else `fallback` (an entry's tenant's language), else pt-BR.
 */
export function localeOfRequest(acceptLanguage: string | undefined, fallback: Locale = DEFAULT_LOCALE): Locale {
  const ranges = (acceptLanguage ?? '')
    .slice(0, 500)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](\.\d{0,3})?)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((range) => range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranges) {
    const language = tag.split('-')[0];
    const match = LOCALES.find((locale) => locale.toLowerCase().split('-')[0] === language);
    if (match) return match;
  }
  return fallback;
}
