import { DEFAULT_LOCALE, LOCALES, type Locale } from '../locale.js';
import { enAlerts, enCustomer, enWorkspace } from './en.js';
import { esAlerts, esCustomer, esWorkspace } from './es.js';
import { ptBRAlerts, ptBRCustomer, ptBRWorkspace } from './pt-BR.js';
import { formatMessage, parseMessage } from './message-format.js';

/**
 * The message catalogues, one per locale, in ICU MessageFormat (the part message-format.ts formats: plurals, selects
 * and numbers by the locale's own rules). Arguments are plain text; HTML callers escape what they get back.
 */

/** The customer's words (survey, recovery and unsubscribe pages, the survey messages), the workspace's, the alerts'. */
export type CustomerKey = keyof typeof ptBRCustomer;
export type WorkspaceKey = keyof typeof ptBRWorkspace;
export type AlertKey = keyof typeof ptBRAlerts;
export type MessageKey = CustomerKey | WorkspaceKey | AlertKey;
export type CustomerCatalogue = Record<CustomerKey, string>;
export type WorkspaceCatalogue = Record<WorkspaceKey, string>;
export type AlertCatalogue = Record<AlertKey, string>;
export type Catalogue = Record<MessageKey, string>;

// One object per area, so that a function bundles the three languages of only the words it shows.
const CUSTOMER: Record<Locale, CustomerCatalogue> = { 'pt-BR': ptBRCustomer, es: esCustomer, en: enCustomer };
const WORKSPACE: Record<Locale, WorkspaceCatalogue> = { 'pt-BR': ptBRWorkspace, es: esWorkspace, en: enWorkspace };
const ALERTS: Record<Locale, AlertCatalogue> = { 'pt-BR': ptBRAlerts, es: esAlerts, en: enAlerts };

/** Every message of a locale, every area (the catalogue tests compare them). */
export const catalogueOf = (locale: Locale): Catalogue => ({ ...CUSTOMER[locale], ...WORKSPACE[locale], ...ALERTS[locale] });

export type MessageArgs = Record<string, string | number>;
export type Translate<K extends MessageKey = CustomerKey> = (key: K, args?: MessageArgs) => string;

const parsed = new Map<string, ReturnType<typeof parseMessage>>();

/** The messages of an area in a locale; each is parsed once per container, on first use. */
function translate<K extends MessageKey>(catalogues: Record<Locale, Record<K, string>>, locale: Locale): Translate<K> {
  return (key, args) => {
    const id = `${locale}\u0000${key}`;
    const parts = parsed.get(id) ?? parsed.set(id, parseMessage(catalogues[locale][key])).get(id)!;
    return formatMessage(parts, locale, args);
  };
}

/** A customer's words in a locale. */
export const translator = (locale: Locale): Translate => translate(CUSTOMER, locale);
/** The workspace's words in a locale. */
export const workspaceTranslator = (locale: Locale): Translate<WorkspaceKey> => translate(WORKSPACE, locale);
/** The case alerts' words in a locale. */
export const alertTranslator = (locale: Locale): Translate<AlertKey> => translate(ALERTS, locale);

export const isLocale = (value: unknown): value is Locale => (LOCALES as readonly unknown[]).includes(value);

/** The survey's language: the customer's, else the journey's, else the tenant's, else pt-BR. */
export const chooseLocale = (...preferences: (Locale | null | undefined)[]): Locale =>
  preferences.find((locale): locale is Locale => isLocale(locale)) ?? DEFAULT_LOCALE;

/**
 * The locale of a request with no survey behind it (a broken link, a failure before the link was read): the first
 * language of Accept-Language the service speaks, by quality, else pt-BR.
 */
export function localeOfRequest(acceptLanguage: string | undefined): Locale {
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
  return DEFAULT_LOCALE;
}
