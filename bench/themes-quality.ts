import { readFileSync } from 'node:fs';
import type { Locale } from '../shared/locale.js';

/** One comment of the development corpus (test/fixtures/themes-corpus/README.md says how it is labelled). */
export interface CorpusComment {
  id: number;
  split: 'dev' | 'holdout';
  language: Locale;
  journey: 'online' | 'in-store';
  score: number;
  text: string;
  themes: Record<string, Polarity>;
}
export type Polarity = 'positive' | 'negative' | 'neutral' | 'mixed';
/** What a matcher says of one comment: the themes it finds, each with its polarity. */
export type CorpusMatcher = (comment: CorpusComment) => { theme: string; sentiment: Polarity }[];

export const CORPUS_PATH = new URL('../test/fixtures/themes-corpus/comments.jsonl', import.meta.url);

export const readCorpus = (): CorpusComment[] =>
  readFileSync(CORPUS_PATH, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CorpusComment);

interface Counts {
  tp: number;
  fp: number;
  fn: number;
}
export interface Figures {
  comments: number;
  perTheme: Record<string, Counts & { precision: number; recall: number; f1: number }>;
  micro: { precision: number; recall: number; f1: number };
  /** Of the themes found that the labels name, the share whose polarity is the label's. */
  polarity: number;
  /** Of the comments labelled with a theme, the share the matcher finds none in. */
  noTheme: number;
}

const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
const f1 = (p: number, r: number) => (p + r === 0 ? 0 : (2 * p * r) / (p + r));

/** Precision, recall and F1 per theme and micro-averaged, polarity accuracy and the share left with no theme. */
export function evaluate(comments: readonly CorpusComment[], matcher: CorpusMatcher): Figures {
  const counts = new Map<string, Counts>();
  const cell = (theme: string) => counts.get(theme) ?? counts.set(theme, { tp: 0, fp: 0, fn: 0 }).get(theme)!;
  let polarityRight = 0;
  let polarityAll = 0;
  let labelled = 0;
  let empty = 0;
  for (const comment of comments) {
    const found = new Map(matcher(comment).map((aspect) => [aspect.theme, aspect.sentiment]));
    const labels = Object.entries(comment.themes);
    if (labels.length) {
      labelled++;
      if (found.size === 0) empty++;
    }
    for (const [theme, polarity] of labels) {
      if (!found.has(theme)) {
        cell(theme).fn++;
        continue;
      }
      cell(theme).tp++;
      polarityAll++;
      if (found.get(theme) === polarity) polarityRight++;
    }
    for (const theme of found.keys()) if (!(theme in comment.themes)) cell(theme).fp++;
  }
  const perTheme: Figures['perTheme'] = {};
  const total = { tp: 0, fp: 0, fn: 0 };
  for (const [theme, c] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    const precision = ratio(c.tp, c.tp + c.fp);
    const recall = ratio(c.tp, c.tp + c.fn);
    perTheme[theme] = { ...c, precision, recall, f1: f1(precision, recall) };
    total.tp += c.tp;
    total.fp += c.fp;
    total.fn += c.fn;
  }
  const precision = ratio(total.tp, total.tp + total.fp);
  const recall = ratio(total.tp, total.tp + total.fn);
  return {
    comments: comments.length,
    perTheme,
    micro: { precision, recall, f1: f1(precision, recall) },
    polarity: ratio(polarityRight, polarityAll),
    noTheme: ratio(empty, labelled),
  };
}

const two = (n: number) => n.toFixed(2);

/** The figures as a Markdown table. */
export function figuresTable(title: string, figures: Figures): string {
  const rows = Object.entries(figures.perTheme).map(
    ([theme, c]) => `| ${theme} | ${c.tp + c.fn} | ${c.tp + c.fp} | ${two(c.precision)} | ${two(c.recall)} | ${two(c.f1)} |`,
  );
  const { micro } = figures;
  return [
    `### ${title} (${figures.comments} comments)`,
    '',
    '| theme | labelled | found | precision | recall | F1 |',
    '|---|---|---|---|---|---|',
    ...rows,
    `| **micro** | | | ${two(micro.precision)} | ${two(micro.recall)} | **${two(micro.f1)}** |`,
    '',
    `Polarity right in ${two(figures.polarity)} of the mentions found; ${two(figures.noTheme)} of the comments labelled with a theme got none.`,
  ].join('\n');
}
