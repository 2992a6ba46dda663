import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluate, readCorpus } from '../../bench/themes-quality.js';
import { analyser } from '../../bench/themes-bench.js';

/** The figure docs/themes.md states: micro-F1 of the default themes on the whole development corpus. */
const documented = Number(
  /Micro-F1 on the whole corpus: (\d\.\d+)/.exec(readFileSync(new URL('../../docs/themes.md', import.meta.url), 'utf8'))?.[1],
);

describe('the default themes on the development corpus', () => {
  const corpus = readCorpus();

  it('holds at least 600 comments, 400 of them pt-BR, online and in-store, with a held-out part', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(600);
    expect(corpus.filter((c) => c.language === 'pt-BR').length).toBeGreaterThanOrEqual(400);
    expect(new Set(corpus.map((c) => c.journey))).toEqual(new Set(['online', 'in-store']));
    expect(corpus.filter((c) => c.split === 'holdout').length / corpus.length).toBeCloseTo(0.3, 1);
  });

  it('keeps micro-F1 within 0.02 of the figure in docs/themes.md', () => {
    expect(documented).toBeGreaterThan(0);
    expect(evaluate(corpus, analyser).micro.f1).toBeGreaterThanOrEqual(documented - 0.02);
  });
});
