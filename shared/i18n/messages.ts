import { IntlMessageFormat } from 'intl-messageformat';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../locale.js';
import { en } from './en.js';
import { es } from './es.js';
import { ptBR } from './pt-BR.js';

/**
 * The message catalogues, one per locale, in ICU MessageFormat (FormatJS's intl-messageformat: plurals, selects and
 * numbers by the locale's own rules). Arguments are plain text; HTML callers escape what they get back.
 */

export type MessageKey = keyof typeof ptBR;
export type Catalogue = Record<MessageKey, string>;

export const CATALOGUES: Record<Locale, Catalogue> = { 'pt-BR': ptBR, es, en };

export type MessageArgs = Record<string, string | number>;
export type Translate = (key: MessageKey, args?: MessageArgs) => string;

const compiled = new Map<string, IntlMessageFormat>();

/** The messages of a locale; each is compiled once per container, on first use. */
export function translator(locale: Locale): Translate {
  return (key, args) => {
    const id = `${locale}\u0000${key}`;
    let format = compiled.get(id);
    if (!format) {
      format = new IntlMessageFormat(CATALOGUES[locale][key], locale);
      compiled.set(id, format);
    }
    return String(format.format(args));
  };
}

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
