import { stemmer as portugueseStem } from '@orama/stemmers/portuguese';
import { stemmer as spanishStem } from '@orama/stemmers/spanish';
import { stem as englishStem } from 'porter2';
import { LOCALES, type Locale } from '../locale.js';
import { LEXICONS } from './lexicon.js';
import { MAX_THEMES_PER_COMMENT, type Theme } from './theme.js';
import type { Aspect, Sentiment } from './ports.js';

export type { Aspect };

/**
 * What the matcher knows of a comment besides its words: the journey's kind (`online`: an order shipped to the
 * customer; `in-store`: a visit; absent: either) and the polarity its score gives (what a mention with no opinion of
 * its own takes).
 */
export interface MatchContext {
  kind?: 'online' | 'in-store' | undefined;
  fallback?: Sentiment | undefined;
}

/**
 * Snowball's stemmers, in their fastest JavaScript: Portuguese and Spanish from `@orama/stemmers` (Snowball's own
 * JavaScript output), English from `porter2` (Snowball's Porter2; orama's English is the older Porter). Each gives the
 * stems `snowball-stemmers` gave on every word of the corpus, the defaults and the lexicons (test/unit/stemmers.test.ts),
 * 3 to 7 times faster: stemming was most of compiling a tenant's themes, and `snowball-stemmers`' English most of that.
 */
const STEMMERS: Record<Locale, { stem(word: string): string }> = {
  'pt-BR': { stem: portugueseStem },
  es: { stem: spanishStem },
  en: { stem: englishStem },
};

/** Lower case, accents off: how exclusions, negators and contrast words are compared. */
export const plain = (word: string): string => word.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');

const STEM_CACHE_SIZE = 50_000;
const stemCache: Record<Locale, Map<string, string>> = { 'pt-BR': new Map(), es: new Map(), en: new Map() };

/** A word lower-cased and stemmed in `locale`, then without accents (remembered: a process stems each word once). */
export function stemOf(word: string, locale: Locale): string {
  const lower = word.toLowerCase();
  const cache = stemCache[locale];
  let stem = cache.get(lower);
  if (stem === undefined) {
    stem = plain(STEMMERS[locale].stem(lower));
    if (cache.size >= STEM_CACHE_SIZE) cache.clear();
    cache.set(lower, stem);
  }
  return stem;
}

const WORDS = /[\p{L}\p{N}]+/gu;
/** The words of a text, lower-cased and stemmed in `locale`, then without accents. */
export const stems = (text: string, locale: Locale): string[] => (text.match(WORDS) ?? []).map((word) => stemOf(word, locale));

interface Token {
  plain: string;
  stem: string;
  clause: number;
  sentence: number;
}

const TOKENS = /[\p{L}\p{N}]+|[.;!?\n]+|[,:()]+/gu;

/** The words of a comment, each with its clause and sentence ("mas", "pero", "but" and punctuation end a clause). */
function tokenize(text: string, locale: Locale, lexicon: CompiledLexicon): Token[] {
  const tokens: Token[] = [];
  let clause = 0;
  let sentence = 0;
  for (const [raw] of text.replace(/n['’]t\b/giu, ' not').matchAll(TOKENS)) {
    if (/^[.;!?\n]/u.test(raw)) {
      sentence++;
      clause++;
      continue;
    }
    if (/^[,:()]/u.test(raw)) {
      clause++;
      continue;
    }
    const word = plain(raw);
    if (lexicon.contrast.has(word)) {
      clause++;
      continue;
    }
    const previous = tokens.at(-1);
    if (previous && previous.clause === clause && lexicon.contrast.has(`${previous.plain} ${word}`)) {
      tokens.pop();
      clause++;
      continue;
    }
    tokens.push({ plain: word, stem: stemOf(raw, locale), clause, sentence });
  }
  return tokens;
}

interface CompiledLexicon {
  opinion: Map<string, number>;
  negators: Set<string>;
  contrast: Set<string>;
  intensifiers: Set<string>;
  generic: Set<string>;
  arrival: Set<string>;
  waiting: Set<string>;
  /** As written, accents and a final s off. */
  queuePlaces: Set<string>;
}

const lexicons = new Map<Locale, CompiledLexicon>();
function lexiconOf(locale: Locale): CompiledLexicon {
  let compiled = lexicons.get(locale);
  if (compiled) return compiled;
  const words = LEXICONS[locale];
  const mild = new Set(words.mild.map(plain));
  const opinion = new Map<string, number>();
  const weigh = (list: readonly string[], sign: number) => {
    for (const word of list) {
      const key = stems(word, locale).join(' ');
      if (key) opinion.set(key, sign * (mild.has(plain(word)) ? 0.5 : 1));
    }
  };
  weigh(words.positive, 1);
  weigh(words.negative, -1);
  compiled = {
    opinion,
    negators: new Set(words.negators.map(plain)),
    contrast: new Set(words.contrast.map(plain)),
    intensifiers: new Set(words.intensifiers.map(plain)),
    generic: new Set(words.generic.map((word) => stemOf(word, locale))),
    arrival: new Set(words.arrival.map((word) => stems(word, locale).join(' '))),
    waiting: new Set(words.waiting.map(plain)),
    queuePlaces: new Set(words.queuePlaces.map((word) => singular(plain(word)))),
  };
  lexicons.set(locale, compiled);
  return compiled;
}

/**
 * Whether a word says an opinion or shapes one in `locale` (the lexicon's opinion, negation, contrast and intensifying
 * words): the key phrases leave these out (shared/themes/extraction.ts).
 */
export function isOpinionOrFunction(word: string, locale: Locale): boolean {
  const lexicon = lexiconOf(locale);
  const written = plain(word);
  return (
    lexicon.opinion.has(stemOf(word, locale)) ||
    lexicon.negators.has(written) ||
    lexicon.contrast.has(written) ||
    lexicon.intensifiers.has(written)
  );
}

interface Entry {
  theme: number;
  stems: string[];
  /** A one-word keyword whose stem is shorter than MIN_STEM ("comida" is "com"): matched as written, a final s aside. */
  exact?: string | undefined;
  generic: boolean;
  arrival: boolean;
}
interface Exclusion {
  theme: number;
  words: string[];
}
interface CompiledLocale {
  /** Keywords by their first stem. */
  keywords: Map<string, Entry[]>;
  /** Exclusions by their first word (as written, accents off). */
  exclusions: Map<string, Exclusion[]>;
}
interface CompiledThemes {
  themes: readonly Theme[];
  slugs: string[];
  /** Each language's, compiled at its first comment: a process that reads Portuguese never stems the Spanish keywords. */
  byLocale: Partial<Record<Locale, CompiledLocale>>;
  wait: number;
  delivery: number;
}

/** A one-word keyword's stem shorter than this matches only the word as written: stems this short collide ("com"). */
const MIN_STEM = 4;

/** A plural's final s off: "caixas" excludes as "caixa" does. */
const singular = (word: string) => (word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word);

function compileLocale(themes: readonly Theme[], locale: Locale): CompiledLocale {
  const lexicon = lexiconOf(locale);
  const keywords = new Map<string, Entry[]>();
  const exclusions = new Map<string, Exclusion[]>();
  themes.forEach((theme, index) => {
    for (const keyword of theme.keywords[locale] ?? []) {
      const words = stems(keyword, locale);
      if (!words.length) continue;
      const key = words.join(' ');
      const written = (keyword.match(WORDS) ?? []).map((word) => singular(plain(word)));
      const entry = {
        theme: index,
        stems: words,
        exact: words.length === 1 && words[0]!.length < MIN_STEM ? written[0] : undefined,
        generic: words.length === 1 && lexicon.generic.has(key),
        arrival: lexicon.arrival.has(key),
      };
      const list = keywords.get(words[0]!) ?? keywords.set(words[0]!, []).get(words[0]!)!;
      if (!list.some((other) => other.theme === index && other.stems.join(' ') === key)) list.push(entry);
    }
    for (const phrase of theme.exclude?.[locale] ?? []) {
      const words = (phrase.match(WORDS) ?? []).map((word) => singular(plain(word)));
      if (!words.length) continue;
      const list = exclusions.get(words[0]!) ?? exclusions.set(words[0]!, []).get(words[0]!)!;
      list.push({ theme: index, words });
    }
  });
  return { keywords, exclusions };
}

const compiled = new WeakMap<readonly Theme[], CompiledThemes>();

/**
 * A configuration's themes compiled once (the configuration is read again only when its version moves, and so is its
 * list of themes): each language's keywords by their first stem, its exclusions by their first word. Matching a
 * comment is then one look-up per word, however many keywords the themes have.
 */
export function compileThemes(themes: readonly Theme[]): CompiledThemes {
  let found = compiled.get(themes);
  if (!found) {
    const slugs = themes.map((theme) => theme.slug);
    found = {
      themes,
      slugs,
      byLocale: {},
      wait: slugs.indexOf('wait'),
      delivery: slugs.indexOf('delivery'),
    };
    compiled.set(themes, found);
  }
  return found;
}

/** One language of compiled themes, compiled on its first use. */
export function compiledLocale(compiled: CompiledThemes, locale: Locale): CompiledLocale {
  return (compiled.byLocale[locale] ??= compileLocale(compiled.themes, locale));
}

interface Hit {
  /** The theme the keyword is of (its exclusions apply), and the one it counts for (the journey's kind may move it). */
  source: number;
  theme: number;
  start: number;
  end: number;
}

/** The keyword hits of one language's compiled themes in the tokens, before exclusions and context. */
function hitsOf(
  tokens: Token[],
  {
    compiledLocale,
    lexicon,
    themes,
    context,
  }: { compiledLocale: CompiledLocale; lexicon: CompiledLexicon; themes: CompiledThemes; context: MatchContext },
): Hit[] {
  const hits: Hit[] = [];
  const excluded = new Set<string>();
  tokens.forEach((token, i) => {
    for (const entry of compiledLocale.keywords.get(token.stem) ?? []) {
      const end = i + entry.stems.length;
      if (end > tokens.length || !entry.stems.every((stem, j) => tokens[i + j]!.stem === stem)) continue;
      if (entry.exact !== undefined && singular(token.plain) !== entry.exact) continue;
      if (entry.generic && !opinionNear(tokens, i, lexicon)) continue;
      let theme = entry.theme;
      if (theme === themes.delivery && entry.arrival && context.kind === 'in-store') continue;
      if (theme === themes.wait && context.kind === 'online' && themes.delivery >= 0) theme = themes.delivery;
      // "esperei 40 minutos no caixa": the checkout is where the customer waited, not what was paid.
      if (entry.stems.length === 1 && theme !== themes.wait && waitedAt(tokens, i, lexicon)) {
        if (themes.wait < 0) continue;
        theme = themes.wait;
      }
      hits.push({ source: entry.theme, theme, start: i, end });
    }
    for (const exclusion of compiledLocale.exclusions.get(singular(token.plain)) ?? []) {
      if (exclusion.words.every((word, j) => tokens[i + j] && singular(tokens[i + j]!.plain) === word))
        excluded.add(`${exclusion.theme}#${token.sentence}`);
    }
  });
  return hits.filter((hit) => !excluded.has(`${hit.source}#${tokens[hit.start]!.sentence}`));
}

/** Whether the word at `at` is a place a queue forms at, after a word of waiting one's turn in its clause. */
function waitedAt(tokens: Token[], at: number, lexicon: CompiledLexicon): boolean {
  if (!lexicon.queuePlaces.has(singular(tokens[at]!.plain))) return false;
  for (let i = at - 1; i >= 0 && tokens[i]!.clause === tokens[at]!.clause; i--) if (lexicon.waiting.has(tokens[i]!.plain)) return true;
  return false;
}

/** An opinion word within two words of a generic keyword, in its clause ("produto ruim", "ótimo produto"). */
function opinionNear(tokens: Token[], at: number, lexicon: CompiledLexicon): boolean {
  for (let i = Math.max(0, at - 2); i <= Math.min(tokens.length - 1, at + 2); i++)
    if (i !== at && tokens[i]!.clause === tokens[at]!.clause && Math.abs(lexicon.opinion.get(tokens[i]!.stem) ?? 0) >= 1) return true;
  return false;
}

const NEGATION_SCOPE = 3;

/** Whether a negator of the same clause stands within the three words before `at`. */
function negated(tokens: Token[], at: number, lexicon: CompiledLexicon): boolean {
  for (let i = at - 1; i >= Math.max(0, at - NEGATION_SCOPE); i--) {
    if (tokens[i]!.clause !== tokens[at]!.clause) return false;
    if (lexicon.negators.has(tokens[i]!.plain)) return true;
  }
  return false;
}

/** What a clause says of a mention: its opinion words, each turned by a negator before it and raised by an intensifier. */
function clauseValue(tokens: Token[], hit: Hit, lexicon: CompiledLexicon): number {
  const clause = tokens[hit.start]!.clause;
  let value = 0;
  let keywordOpinion = false;
  for (let i = hit.start; i >= 0 && tokens[i]!.clause === clause; i--) value += wordValue(tokens, i, lexicon);
  for (let i = hit.start + 1; i < tokens.length && tokens[i]!.clause === clause; i++) value += wordValue(tokens, i, lexicon);
  for (let i = hit.start; i < hit.end; i++) if (lexicon.opinion.has(tokens[i]!.stem)) keywordOpinion = true;
  // A keyword with no opinion of its own, negated: a complaint ("não chegou", "nunca recebi", "sem resposta").
  if (!keywordOpinion && negated(tokens, hit.start, lexicon)) value -= 1;
  return value;
}

function wordValue(tokens: Token[], i: number, lexicon: CompiledLexicon): number {
  const token = tokens[i]!;
  let value = lexicon.opinion.get(token.stem) ?? 0;
  // A two-word opinion ("em conta", "on time") counts on its first word.
  const next = tokens[i + 1];
  if (next && next.clause === token.clause) value += lexicon.opinion.get(`${token.stem} ${next.stem}`) ?? 0;
  if (value === 0) return 0;
  if (i > 0 && lexicon.intensifiers.has(tokens[i - 1]!.plain)) value *= 1.5;
  if (negated(tokens, i, lexicon)) value = -value;
  return value;
}

function polarity(values: number[], fallback: Sentiment | undefined): Sentiment {
  const positive = values.some((value) => value >= 1);
  const negative = values.some((value) => value <= -1);
  if (positive && negative) return 'mixed';
  const sum = values.reduce((a, b) => a + b, 0);
  if (sum > 0) return 'positive';
  if (sum < 0) return 'negative';
  return fallback ?? 'neutral';
}

/**
 * The themes a comment mentions in `locales`, each with the polarity of what it says of it, in the themes' order
 * (at most MAX_THEMES_PER_COMMENT).
 */
export function aspectsIn(
  comment: string,
  { locales, themes, context = {} }: { locales: readonly Locale[]; themes: readonly Theme[]; context?: MatchContext },
): Aspect[] {
  const compiledThemes = compileThemes(themes);
  const values = new Map<number, number[]>();
  for (const locale of locales) {
    const lexicon = lexiconOf(locale);
    const tokens = tokenize(comment, locale, lexicon);
    for (const hit of hitsOf(tokens, {
      compiledLocale: compiledLocale(compiledThemes, locale),
      lexicon,
      themes: compiledThemes,
      context,
    })) {
      const list = values.get(hit.theme) ?? values.set(hit.theme, []).get(hit.theme)!;
      list.push(clauseValue(tokens, hit, lexicon));
    }
  }
  return [...values.keys()]
    .sort((a, b) => a - b)
    .slice(0, MAX_THEMES_PER_COMMENT)
    .map((theme) => ({ theme: compiledThemes.slugs[theme]!, sentiment: polarity(values.get(theme)!, context.fallback) }));
}

/**
 * What a comment says as a whole, by the matcher's reading (its opinion words in each clause, turned by negation and
 * raised by intensifiers): `mixed` when one clause praises and another complains, `fallback` when no opinion word is
 * found. The answer's sentiment when the tenant turns Comprehend's off, for a comment that mentions no theme.
 */
export function commentPolarity(comment: string, locale: Locale, fallback: Sentiment | undefined): Sentiment {
  const lexicon = lexiconOf(locale);
  const tokens = tokenize(comment, locale, lexicon);
  const byClause = new Map<number, number>();
  tokens.forEach((token, i) => {
    const value = wordValue(tokens, i, lexicon);
    if (value) byClause.set(token.clause, (byClause.get(token.clause) ?? 0) + value);
  });
  return polarity([...byClause.values()], fallback);
}

/** Every locale, for a comment in a language none of the themes speak. */
export const ALL_LOCALES: readonly Locale[] = LOCALES;
