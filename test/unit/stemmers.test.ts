import { readFileSync } from 'node:fs';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stem as english } from 'porter2';
import snowball from 'snowball-stemmers';
import { describe, expect, it } from 'vitest';
import { LEXICONS } from '../../shared/themes/lexicon.js';
import { DEFAULT_THEMES } from '../../shared/themes/themes.js';

/**
 * The matcher stems with faster stemmers where it used `snowball-stemmers`: Portuguese and Spanish with
 * `@orama/stemmers`, English with `porter2`. All are Snowball's algorithms, and this holds them to the same stems on
 * every word the corpus, the default themes and the lexicons have, so the swap
 * moves no figure of `npm run bench -- themes`. `snowball-stemmers` stays only here, as the reference.
 */
describe('the stemmers', () => {
  it('stem every word of the corpus, the defaults and the lexicons as snowball-stemmers does', () => {
    const corpus = readFileSync('test/fixtures/themes-corpus/comments.jsonl', 'utf8');
    const text = [corpus, JSON.stringify(DEFAULT_THEMES), JSON.stringify(LEXICONS)].join(' ').toLowerCase();
    const words = [...new Set(text.match(/[\p{L}\p{N}]+/gu))];
    expect(words.length).toBeGreaterThan(2000);
    for (const [name, faster] of [
      ['portuguese', portuguese],
      ['spanish', spanish],
      ['english', english],
    ] as const) {
      const reference = snowball.newStemmer(name);
      const differ = words.filter((word) => reference.stem(word) !== faster(word));
      expect(differ, name).toEqual([]);
    }
  });
});
