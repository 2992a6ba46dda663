import { evaluate, figuresTable, readCorpus, type CorpusMatcher } from './themes-quality.js';
import { analyseThemes, DEFAULT_THEMES } from '../shared/themes/themes.js';

/** The polarity a comment's score gives a mention with no opinion of its own: its NPS bucket's. */
const bucket = (score: number) => (score <= 6 ? 'negative' : score <= 8 ? 'neutral' : 'positive');

/** The analysis as the consumer runs it, over a corpus comment. */
export const analyser: CorpusMatcher = (comment) =>
  analyseThemes(comment.text, comment.language, DEFAULT_THEMES, { kind: comment.journey, fallback: bucket(comment.score) });

/** `npm run bench -- themes`: the default themes on the development corpus, its dev and held-out parts apart. */
export function themesQuality(): string {
  const corpus = readCorpus();
  return [
    '## Themes on the development corpus',
    figuresTable(
      'dev',
      evaluate(
        corpus.filter((c) => c.split === 'dev'),
        analyser,
      ),
    ),
    figuresTable(
      'holdout',
      evaluate(
        corpus.filter((c) => c.split === 'holdout'),
        analyser,
      ),
    ),
    figuresTable('all', evaluate(corpus, analyser)),
  ].join('\n\n');
}
