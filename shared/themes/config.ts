import * as v from 'valibot';
import { nameField as name } from '../fields.js';
import { atMost, flag, perLocale, uniqueBy } from '../settings/fields.js';
import { MAX_KEYWORD_LENGTH, MAX_KEYWORDS, MAX_THEMES, type Theme } from './theme.js';

/**
 * Phrases by language, each language's list optional (none when left out): a theme's keywords, and its exclusions.
 * `list` names what a list holds, `many` what its bound counts, `example` shows the whole.
 */
const phrasesByLocale = ({ list, many, example }: { list: string; many: string; example: string }) =>
  v.strictObject(
    perLocale(() =>
      v.optional(
        v.pipe(
          v.array(name(MAX_KEYWORD_LENGTH), `must be a list of ${list}`),
          v.maxLength(MAX_KEYWORDS, `may list at most ${MAX_KEYWORDS} ${many}`),
        ),
        [],
      ),
    ),
    `must be ${many} by language, such as ${example}`,
  );

/**
 * A theme of the tenant's comments (shared/themes/): its slug, its name in each language and the keywords that find it in
 * a comment of each language (a language left out has none).
 */
export const ThemeConfig = v.strictObject({
  slug: v.pipe(name(40), v.regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lowercase letters, digits and dashes')),
  name: v.strictObject(
    perLocale(() => name(100)),
    'must name the theme in pt-BR, es and en',
  ),
  keywords: phrasesByLocale({
    list: 'keywords',
    many: 'keywords',
    example: '{ "pt-BR": ["fila"], "es": ["cola"], "en": ["queue"] }',
  }),
  /** Words or phrases that cancel the theme's keywords in their sentence, by language (shared/themes/theme.ts). */
  exclude: v.optional(
    phrasesByLocale({
      list: 'words or phrases',
      many: 'exclusions',
      example: '{ "pt-BR": ["a caixa"], "es": ["la caja"], "en": ["the box"] }',
    }),
  ),
}) satisfies v.GenericSchema<unknown, Theme>;

/** The themes a tenant's comments are analysed for; absent: the default themes (shared/themes/theme.ts). */
export const ThemesConfig = v.pipe(
  v.array(ThemeConfig, 'must be a list of themes'),
  v.minLength(1, 'must list at least one theme (leave themes out for the default ones)'),
  atMost<v.InferOutput<typeof ThemeConfig>>(MAX_THEMES, 'themes'),
  uniqueBy<v.InferOutput<typeof ThemeConfig>>('slug', 'theme'),
);

/**
 * How the tenant's comments are analysed (`commentAnalysis` in its configuration): whether Amazon Comprehend reads each
 * comment's sentiment (one call, $300 of a million comments' $306), or the service reads it from the comment's own
 * mentions and score (docs/themes.md#cost). On until the tenant turns it off: the service's own reading is measured on
 * mentions, not yet on whole answers.
 */
export const COMMENT_ANALYSIS_DEFAULTS = { comprehendSentiment: true } as const;
export const CommentAnalysisConfig = v.strictObject({
  comprehendSentiment: flag(COMMENT_ANALYSIS_DEFAULTS.comprehendSentiment),
});
export type CommentAnalysisConfig = v.InferOutput<typeof CommentAnalysisConfig>;

declare module '../settings/settings.js' {
  interface Settings {
    /** The tenant's themes, in slug order; absent: DEFAULT_THEMES. */
    themes?: Theme[];
    /** Absent: COMMENT_ANALYSIS_DEFAULTS. */
    commentAnalysis?: CommentAnalysisConfig;
  }
}
