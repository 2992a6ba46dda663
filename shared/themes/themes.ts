import * as v from 'valibot';
import { LOCALES, type Locale } from '../locale.js';
import { aspectsIn, commentPolarity, type Aspect, type MatchContext } from './matcher.js';
import type { Sentiment } from './ports.js';
import type { Theme } from './theme.js';

export { DEFAULT_THEMES, MAX_KEYWORDS, MAX_THEMES, MAX_THEMES_PER_COMMENT, themesOf, type Theme } from './theme.js';
export { compileThemes, stems, type Aspect, type MatchContext } from './matcher.js';

/** A theme's slug, as a filter names it: lower-case letters, digits and hyphens. */
export const ThemeSlug = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/, 'must be a theme slug: 1 to 40 lower-case letters, digits or hyphens'),
);

/** The locale of keywords that a language code (Comprehend's: pt, es, en) reads; undefined for any other language. */
export const localeOfLanguage = (language: string): Locale | undefined =>
  LOCALES.find((locale) => locale.slice(0, 2) === language.slice(0, 2).toLowerCase());

/**
 * The themes a comment mentions, each with the polarity of what it says of it, in the themes' order
 * (shared/themes/matcher.ts). A comment in a language no theme has keywords for (neither pt, es nor en) is read with
 * the keywords of all three.
 */
export function analyseThemes(
  comment: string,
  { language, themes, context = {} }: { language: string; themes: readonly Theme[]; context?: MatchContext },
): Aspect[] {
  const locale = localeOfLanguage(language);
  return aspectsIn(comment, { locales: locale ? [locale] : LOCALES, themes, context });
}

/** The slugs of the themes a comment mentions, in the themes' order. */
export const matchThemes = (
  comment: string,
  { language, themes, context = {} }: { language: string; themes: readonly Theme[]; context?: MatchContext },
): string[] => analyseThemes(comment, { language, themes, context }).map((aspect) => aspect.theme);

/**
 * The answer's sentiment by the service alone (the tenant turned Comprehend's off): its mentions' polarities, praise
 * and complaint together `mixed`; with no mention of a theme, or only neutral ones, what the comment says as a whole;
 * with no opinion word at all, `fallback` (the score's bucket's polarity).
 */
export function ownSentiment(
  comment: string,
  { language, aspects, fallback }: { language: string; aspects: readonly Aspect[]; fallback: Sentiment | undefined },
): Sentiment {
  const said = new Set(aspects.map((aspect) => aspect.sentiment).filter((sentiment) => sentiment !== 'neutral'));
  if (said.has('mixed') || (said.has('positive') && said.has('negative'))) return 'mixed';
  if (said.size === 1) return [...said][0]!;
  const locale = localeOfLanguage(language);
  return commentPolarity(comment, locale ?? LOCALES[0], fallback);
}
