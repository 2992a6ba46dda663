import { evaluate, figuresTable, readCorpus, type CorpusMatcher } from './themes-quality.js';
import { LOCALES } from '../shared/locale.js';
import { analyseThemes, compileThemes, DEFAULT_THEMES, MAX_KEYWORDS, MAX_THEMES, type Theme } from '../shared/themes/themes.js';

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
    matcherAtBounds(),
  ].join('\n\n');
}

/** Themes at the schema's bounds: 100 themes of 50 keywords (one to three words) in each of the three languages. */
export function themesAtBounds(): Theme[] {
  const word = (i: number) => `palavra${i.toString(36)}`;
  return Array.from({ length: MAX_THEMES }, (_, t) => ({
    slug: `theme-${t}`,
    name: { 'pt-BR': `Tema ${t}`, es: `Tema ${t}`, en: `Theme ${t}` },
    keywords: Object.fromEntries(
      LOCALES.map((locale) => [
        locale,
        Array.from({ length: MAX_KEYWORDS }, (_, k) => Array.from({ length: 1 + (k % 3) }, (_, w) => word(t * 1000 + k * 3 + w)).join(' ')),
      ]),
    ) as Theme['keywords'],
    exclude: Object.fromEntries(LOCALES.map((locale) => [locale, [`nao ${word(t)}`]])) as Theme['keywords'],
  }));
}

/** A 2,000-character comment in Portuguese. */
export const LONG_COMMENT = (
  'Comprei um fogão no dia 10 e a previsão era dia 20, mas até hoje não recebi. Liguei no SAC, mandei email e ninguém ' +
  'responde; a transportadora diz que não recebeu a mercadoria. O atendimento da loja foi educado no começo, porém o ' +
  'produto que chegou depois veio quebrado e com a cor errada. '
)
  .repeat(9)
  .slice(0, 2000);

/** The matcher at the schema's bounds: compiling once, then matching a 2,000-character comment. */
export function matcherAtBounds(runs = 200): string {
  const themes = themesAtBounds();
  let started = performance.now();
  compileThemes(themes);
  const compile = performance.now() - started;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    started = performance.now();
    analyseThemes(LONG_COMMENT, 'pt', themes, { kind: 'online', fallback: 'negative' });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
  return [
    '### The matcher at the schema bounds (100 themes x 3 languages x 50 keywords)',
    '',
    '| compile once (ms) | match a 2,000-character comment: median (ms) | p95 (ms) | max (ms) | target |',
    '|---|---|---|---|---|',
    `| ${compile.toFixed(1)} | ${at(0.5)} | ${at(0.95)} | ${times.at(-1)!.toFixed(2)} | under 5 ms |`,
  ].join('\n');
}
