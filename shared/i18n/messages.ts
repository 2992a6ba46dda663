import { DEFAULT_LOCALE, LOCALES, type Locale } from '../locale.js';
import { en } from './en.js';
import { es } from './es.js';
import { ptBR } from './pt-BR.js';
import { formatMessage, parseMessage } from './message-format.js';

/**
 * The message catalogues, one per locale, in ICU MessageFormat (the part message-format.ts formats: plurals, selects
 * and numbers by the locale's own rules). Arguments are plain text; HTML callers escape what they get back.
 */

export type MessageKey = keyof typeof ptBR;
export type Catalogue = Record<MessageKey, string>;

export const CATALOGUES: Record<Locale, Catalogue> = { 'pt-BR': ptBR, es, en };

export type MessageArgs = Record<string, string | number>;
export type Translate = (key: MessageKey, args?: MessageArgs) => string;

const parsed = new Map<string, ReturnType<typeof parseMessage>>();

/** The messages of a locale; each is parsed once per container, on first use. */
export function translator(locale: Locale): Translate {
  return (key, args) => {
    const id = `${locale}\u0000${key}`;
    const parts = parsed.get(id) ?? parsed.set(id, parseMessage(CATALOGUES[locale][key])).get(id)!;
    return formatMessage(parts, locale, args);
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
