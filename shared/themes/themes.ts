import snowball from 'snowball-stemmers';
import * as v from 'valibot';
import { LOCALES, type Locale } from '../locale.js';
import { MAX_THEMES_PER_COMMENT, type Theme } from './theme.js';

export { DEFAULT_THEMES, MAX_KEYWORDS, MAX_THEMES, MAX_THEMES_PER_COMMENT, themesOf, type Theme } from './theme.js';

/** A theme's slug, as a filter names it: lower-case letters, digits and hyphens. */
export const ThemeSlug = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/, 'must be a theme slug: 1 to 40 lower-case letters, digits or hyphens'),
);

const STEMMERS: Record<Locale, { stem(word: string): string }> = {
  'pt-BR': snowball.newStemmer('portuguese'),
  es: snowball.newStemmer('spanish'),
  en: snowball.newStemmer('english'),
};

/** The locale of keywords that a language code (Comprehend's: pt, es, en) reads; undefined for any other language. */
export const localeOfLanguage = (language: string): Locale | undefined =>
  LOCALES.find((locale) => locale.slice(0, 2) === language.slice(0, 2).toLowerCase());

/** The words of a text, lower-cased and stemmed in `locale`, then without accents. */
export function stems(text: string, locale: Locale): string[] {
  const stemmer = STEMMERS[locale];
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((word) => stemmer.stem(word).normalize('NFD').replace(/\p{M}/gu, ''));
}

const contains = (words: string[], phrase: string[]) =>
  phrase.length > 0 && words.some((_, i) => phrase.every((word, j) => words[i + j] === word));

/**
 * The slugs of the themes a comment mentions, in the themes' order. A comment in a language no theme has keywords for
 * (neither pt, es nor en) is read with the keywords of all three.
 */
export function matchThemes(comment: string, language: string, themes: readonly Theme[]): string[] {
  const locales = localeOfLanguage(language) ? [localeOfLanguage(language)!] : [...LOCALES];
  return themes
    .filter((theme) =>
      locales.some((locale) => {
        const words = stems(comment, locale);
        return theme.keywords[locale].some((keyword) => contains(words, stems(keyword, locale)));
      }),
    )
    .map((theme) => theme.slug)
    .slice(0, MAX_THEMES_PER_COMMENT);
}
