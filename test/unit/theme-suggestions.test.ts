import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../shared/access/ports.js';
import type { Settings } from '../../shared/tenants/config-schema.js';
import { uncoveredPhrases } from '../../shared/themes/phrases.js';
import { suggestionsService, type PhraseCell } from '../../shared/themes/suggestions.js';
import { DEFAULT_THEMES } from '../../shared/themes/themes.js';

const USER: Promise<UserRecord> = Promise.resolve({ name: 'gerente', scope: 'all', tokenHash: 'h', created_at: '2026-01-01T00:00:00Z' });
const cell = (phrase: string, count: number, negative: number, period = '2026-11-20'): PhraseCell => ({
  period,
  key: phrase,
  phrase,
  language: 'pt',
  count,
  negative,
  examples: [count],
});

/** The suggestions over day cells held in memory (the tenant's, one month). */
const suggest = (cells: PhraseCell[]) =>
  suggestionsService({
    cells: async (_tenant, _dimension, _id, grain) => (grain === 'day' ? cells : []),
    settings: async () => ({ journeys: [], themes: [...DEFAULT_THEMES] }) as unknown as Settings,
  })(1, { from: '2026-11-15', to: '2026-11-25' }, USER);

describe('theme suggestions', () => {
  it('lists the complaints’ phrases first, and never a phrase said in one answer alone', async () => {
    const listed = await suggest([
      cell('cadeira bamba', 3, 3),
      cell('ar condicionado', 9, 1),
      cell('musica ambiente', 5, 0),
      // One answer's words: a person's name, never suggested.
      cell('maria zulmirenta', 1, 1),
      // The same phrase on two days: two answers.
      cell('estacionamento lotado', 1, 1, '2026-11-16'),
      cell('estacionamento lotado', 1, 1, '2026-11-17'),
    ]);
    expect(listed.map((s) => [s.phrase, s.count, s.negative])).toEqual([
      ['cadeira bamba', 3, 3],
      ['estacionamento lotado', 2, 2],
      ['ar condicionado', 9, 1],
      ['musica ambiente', 5, 0],
    ]);
  });

  it('never counts a placeholder of the redaction, nor a phrase a theme covers', () => {
    const phrases = uncoveredPhrases(['[phone]', 'me liguem no [phone]', 'cadeira bamba', 'fila enorme'], 'pt', DEFAULT_THEMES);
    expect(phrases.map((p) => p.phrase)).toEqual(['cadeira bamba']);
  });
});
