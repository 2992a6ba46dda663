import { evaluate, figuresTable, readCorpus, type CorpusComment, type CorpusMatcher } from './themes-quality.js';
import { LOCALES } from '../shared/locale.js';
import { analyseThemes, compileThemes, DEFAULT_THEMES, MAX_KEYWORDS, MAX_THEMES, type Theme } from '../shared/themes/themes.js';
import { compiledLocale } from '../shared/themes/matcher.js';
import { languageOf } from '../shared/themes/analysis.js';
import { confidentLanguage } from '../shared/themes/extraction.js';
import { suggestionsService, type PhraseCell } from '../shared/themes/suggestions.js';
import type { Settings, ConfigDocument } from '../shared/tenants/config-schema.js';
import { adminThemesPage } from '../shared/workspace/admin-themes-page.js';

/** The polarity a comment's score gives a mention with no opinion of its own: its NPS bucket's. */
const bucket = (score: number) => (score <= 6 ? 'negative' : score <= 8 ? 'neutral' : 'positive');

/** The analysis as the consumer runs it, over a corpus comment. */
export const analyser: CorpusMatcher = (comment) =>
  analyseThemes(comment.text, {
    language: comment.language,
    themes: DEFAULT_THEMES,
    context: { kind: comment.journey, fallback: bucket(comment.score) },
  });

/**
 * The analysis as the consumer runs it when every survey is sent in pt-BR: each comment read in the language
 * `languageOf` chooses (the survey's, unless the comment's own words are sure of another), not its label's.
 */
export const analyserOnPortugueseSurveys: CorpusMatcher = (comment) =>
  analyseThemes(comment.text, {
    language: languageOf(comment.text, 'pt', DEFAULT_THEMES),
    themes: DEFAULT_THEMES,
    context: {
      kind: comment.journey,
      fallback: bucket(comment.score),
    },
  });

/**
 * How the comment's language is chosen without Comprehend (issue 59 §5): how often the comment's own words are sure
 * of a language (`confidentLanguage`), how often they are right then, and the themes' micro-F1 when every survey is
 * in pt-BR (a Spanish or English comment the words are unsure of is then read in Portuguese).
 */
function languageTable(corpus: readonly CorpusComment[]): string {
  const sure = corpus.map((comment) => ({ comment, found: confidentLanguage(comment.text) })).filter(({ found }) => found);
  const right = sure.filter(({ comment, found }) => found === comment.language).length;
  const foreign = corpus.filter((comment) => comment.language !== 'pt-BR');
  const f1 = (matcher: CorpusMatcher, comments: readonly CorpusComment[]) => evaluate(comments, matcher).micro.f1.toFixed(2);
  return [
    "### The comment's language, without Comprehend",
    '',
    '| comments | its own words sure | right when sure | es and en comments | micro-F1, each read in its language | micro-F1, every survey in pt-BR | of the es and en: in their language | every survey in pt-BR |',
    '|---|---|---|---|---|---|---|---|',
    `| ${corpus.length} | ${sure.length} | ${right} | ${foreign.length} | ${f1(analyser, corpus)} | ${f1(analyserOnPortugueseSurveys, corpus)} | ${f1(analyser, foreign)} | ${f1(analyserOnPortugueseSurveys, foreign)} |`,
    '',
    "The themes' figures do not depend on the tenant's sentiment switch (`commentAnalysis.comprehendSentiment`): a mention with no opinion of its own takes its score's polarity, which every answer of a journey has; Comprehend's sentiment (or the service's own) is only the answer's `sentiment`.",
  ].join('\n');
}

/** `npm run bench -- themes`: the default themes on the development corpus, its dev and held-out parts apart. */
export async function themesQuality(): Promise<string> {
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
    languageTable(corpus),
    await matcherAtBounds(),
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

const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;

/** A month of suggestion cells at the read's bound (5,000), phrases of one to four words, none a theme's. */
function monthOfCells(): PhraseCell[] {
  return Array.from({ length: 5_000 }, (_, i) => {
    const phrase = Array.from({ length: 1 + (i % 4) }, (_, w) => `termo${(i * 7 + w).toString(36)}`).join(' ');
    return { period: '2026-10', key: phrase, phrase, language: 'pt', count: 2 + (i % 9), negative: i % 3, examples: [i] };
  });
}

/** The matcher at the schema's bounds: compiling once, then matching a 2,000-character comment; a month of suggestions; the themes page. */
export async function matcherAtBounds(runs = 200): Promise<string> {
  const themes = themesAtBounds();
  let started = performance.now();
  const compiled = compileThemes(themes);
  compiledLocale(compiled, 'pt-BR');
  const compileOne = performance.now() - started;
  started = performance.now();
  compiledLocale(compiled, 'es');
  compiledLocale(compiled, 'en');
  const compileAll = compileOne + performance.now() - started;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    started = performance.now();
    analyseThemes(LONG_COMMENT, { language: 'pt', themes, context: { kind: 'online', fallback: 'negative' } });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
  // A month of suggestions: the month cells at the read's bound, each matched against the themes at the bounds.
  const cells = monthOfCells();
  const settings = { journeys: [], themes } as unknown as Settings;
  const user = Promise.resolve({ name: 'bench', scope: 'all' as const, tokenHash: 'h', created_at: '2026-01-01T00:00:00Z' });
  const suggest = suggestionsService({
    cells: async (_t, { grain }) => (grain === 'month' ? cells : []),
    settings: async () => settings,
  });
  const month: number[] = [];
  for (let i = 0; i < 5; i++) {
    started = performance.now();
    await suggest(1, { from: '2026-10-01', to: '2026-10-31' }, user);
    month.push(performance.now() - started);
  }
  // The themes page: 100 themes of 3 x 50 keywords, and the month's 20 suggestions.
  const listed = await suggest(1, { from: '2026-10-01', to: '2026-10-31' }, user);
  const config = { name: 'Bench', journeys: [], classes: [], themes } as unknown as ConfigDocument;
  const page = adminThemesPage({
    settings: async () => ({ locale: 'pt-BR', delivery: {}, brand: { name: 'Bench' } }) as unknown as Settings,
    readConfig: async () => ({ config, version: 1 }),
    replaceConfig: async () => ({ version: 2, changes: [] }),
    suggestions: async () => listed,
  });
  const pages: number[] = [];
  let size = 0;
  for (let i = 0; i < 5; i++) {
    started = performance.now();
    const shown = await page.showThemes({
      tenantId: 1,
      user: { name: 'bench', scope: 'all', tokenHash: 'h', created_at: '2026-01-01T00:00:00Z', role: 'admin' },
      base: '',
      query: {},
      form: new URLSearchParams(),
    });
    pages.push(performance.now() - started);
    size = Buffer.byteLength(shown.html ?? '');
  }
  return [
    '### The matcher at the schema bounds (100 themes x 3 languages x 50 keywords)',
    '',
    '| compile one language (ms) | compile all three (ms) | match a 2,000-character comment: median (ms) | p95 (ms) | max (ms) | target |',
    '|---|---|---|---|---|---|',
    `| ${compileOne.toFixed(1)} | ${compileAll.toFixed(1)} | ${at(0.5)} | ${at(0.95)} | ${times.at(-1)!.toFixed(2)} | under 5 ms |`,
    '',
    '| a month of suggestions, 5,000 cells: median (ms) | target | the themes page: median (ms) | its size (KB) | target |',
    '|---|---|---|---|---|',
    `| ${median(month).toFixed(1)} | under 1 s | ${median(pages).toFixed(1)} | ${(size / 1024).toFixed(0)} | under 300 ms |`,
  ].join('\n');
}
