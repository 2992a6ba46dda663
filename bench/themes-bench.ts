import { evaluate, figuresTable, readCorpus, type CorpusMatcher } from './themes-quality.js';
import { DEFAULT_THEMES, matchThemes } from '../shared/themes/themes.js';

/** The polarity the counters gave every theme of a comment: its score's bucket. */
const bucket = (score: number) => (score <= 6 ? 'negative' : score <= 8 ? 'neutral' : 'positive');

/** The analysis as the consumer runs it, over a corpus comment. */
export const analyser: CorpusMatcher = (comment) =>
  matchThemes(comment.text, comment.language.slice(0, 2), DEFAULT_THEMES).map((theme) => ({ theme, sentiment: bucket(comment.score) }));

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
