import type { CountedPhrase } from './ports.js';
import { localeOfLanguage, matchThemes, stems, type Theme } from './themes.js';
import { DEFAULT_LOCALE } from '../locale.js';

export type { CountedPhrase };

/**
 * The key phrases of a comment that no theme covers are counted as suggestions (GET /public/themes/suggestions). One
 * comment counts at most this many: each moves 6 cells (the tenant, its store and journey, by day and by month), and a
 * correction takes back as many as it adds: 1 + 2 x 5 x 6 = 61 items of a transaction's 100.
 */
export const MAX_PHRASES_PER_COMMENT = 5;
/** A key phrase longer than this (words, characters) is a sentence, not a suggestion. */
const MAX_PHRASE_WORDS = 4;
const MAX_PHRASE_LENGTH = 60;

const plain = (text: string) => text.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ').trim();

/**
 * The key phrases (Comprehend's, of the redacted comment) no theme covers, normalised and at most
 * MAX_PHRASES_PER_COMMENT. A phrase holding a redaction's placeholder ("[phone]") is left out.
 */
export function uncoveredPhrases(keyPhrases: string[], language: string, themes: readonly Theme[]): CountedPhrase[] {
  const locale = localeOfLanguage(language) ?? DEFAULT_LOCALE;
  const found = new Map<string, CountedPhrase>();
  for (const raw of keyPhrases) {
    const phrase = plain(raw);
    if (!phrase || phrase.includes('[') || phrase.length > MAX_PHRASE_LENGTH || phrase.split(' ').length > MAX_PHRASE_WORDS) continue;
    // Matched as written: the stemmers read accents ("aplicación" and "aplicacion" stem apart), the key drops them.
    if (matchThemes(raw, { language, themes }).length) continue;
    const key = stems(phrase, locale).join(' ');
    // Shown with its accents, so that a theme made of it matches the comments it came from.
    if (key && !found.has(key)) found.set(key, { key, phrase: raw.toLowerCase().replace(/\s+/g, ' ').trim() });
  }
  return [...found.values()].slice(0, MAX_PHRASES_PER_COMMENT);
}
