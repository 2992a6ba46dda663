import { evaluate, figuresTable, readCorpus, type CorpusMatcher } from './themes-quality.js';
import { LOCALES } from '../shared/locale.js';
import { analyseThemes, compileThemes, DEFAULT_THEMES, MAX_KEYWORDS, MAX_THEMES, type Theme } from '../shared/themes/themes.js';
import { compiledLocale } from '../shared/themes/matcher.js';
import { suggestionsService, type PhraseCell } from '../shared/themes/suggestions.js';
import type { Settings, ConfigDocument } from '../shared/tenants/config-schema.js';
import { adminThemesPage } from '../shared/workspace/admin-themes-page.js';

/** The polarity a comment's score gives a mention with no opinion of its own: its NPS bucket's. */
const bucket = (score: number) => (score <= 6 ? 'negative' : score <= 8 ? 'neutral' : 'positive');

/** The analysis as the consumer runs it, over a corpus comment. */
export const analyser: CorpusMatcher = (comment) =>
  analyseThemes(comment.text, comment.language, DEFAULT_THEMES, { kind: comment.journey, fallback: bucket(comment.score) });

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
    analyseThemes(LONG_COMMENT, 'pt', themes, { kind: 'online', fallback: 'negative' });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
  // A month of suggestions: the month cells at the read's bound, each matched against the themes at the bounds.
  const cells = monthOfCells();
  const settings = { journeys: [], themes } as unknown as Settings;
  const user = Promise.resolve({ name: 'bench', scope: 'all' as const, tokenHash: 'h', created_at: '2026-01-01T00:00:00Z' });
  const suggest = suggestionsService({
    cells: async (_t, _d, _i, grain) => (grain === 'month' ? cells : []),
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
