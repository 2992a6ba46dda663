import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../shared/access/ports.js';
import type { Settings } from '../../shared/tenants/config-schema.js';
import { confidentLanguage, keyPhrasesOf } from '../../shared/themes/extraction.js';
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
    cells: async (_tenant, { grain }) => (grain === 'day' ? cells : []),
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

describe("the service's own key phrases (no call to Comprehend's DetectKeyPhrases)", () => {
  it('takes runs of content words, ended by stop words, opinion words, numbers, punctuation and placeholders', () => {
    expect(
      keyPhrasesOf('O estacionamento estava lotado e o ar condicionado não funcionava. Me liguem no [phone], fila de 40 minutos!', 'pt-BR'),
    ).toEqual(['estacionamento', 'ar condicionado', 'funcionava']);
    expect(keyPhrasesOf('El aparcamiento estaba lleno y la música muy alta', 'es')).toEqual(['aparcamiento', 'lleno', 'música', 'alta']);
    expect(keyPhrasesOf("The parking lot wasn't lit, call me at [phone]", 'en')).toEqual(['parking lot', 'lit']);
  });

  it('suggests what two answers name and no theme covers: never a placeholder, a theme, nor a name said once', async () => {
    // Prepare: two comments, as the analysis reads them (redacted), each counted on a day of its own.
    const comments = [
      'O estacionamento estava lotado e o ar condicionado não funcionava. Me liguem no [phone], fila de 40 minutos!',
      'Ar condicionado quebrado de novo, estacionamento pequeno; falei com a Maria Zulmirenta',
    ];
    const cells = comments.flatMap((comment, i) =>
      uncoveredPhrases(keyPhrasesOf(comment, 'pt-BR'), 'pt', DEFAULT_THEMES).map(({ key, phrase }): PhraseCell => ({
        period: `2026-11-2${i}`,
        key,
        phrase,
        language: 'pt',
        count: 1,
        negative: 1,
        examples: [i + 1],
      })),
    );

    // Act
    const listed = await suggestionsService({
      cells: async (_tenant, { grain }) => (grain === 'day' ? cells : []),
      settings: async () => ({ journeys: [], themes: [...DEFAULT_THEMES] }) as unknown as Settings,
    })(1, { from: '2026-11-15', to: '2026-11-25' }, USER);

    // Assess: the queue is a theme's, the phone a placeholder, the name said once.
    expect(listed.map((s) => [s.phrase, s.count])).toEqual([
      ['ar condicionado', 2],
      ['estacionamento', 2],
    ]);
  });
});

describe("the comment's language, by its own words where they are sure (no call to DetectDominantLanguage)", () => {
  it('names the language when words of it alone say so, and nothing for a short or foreign comment', () => {
    expect(confidentLanguage('El personal fue muy amable')).toBe('es');
    expect(confidentLanguage('O atendimento foi muito bom mas a loja estava suja')).toBe('pt-BR');
    expect(confidentLanguage('Prices are too high for what you get')).toBe('en');
    // Too few words to be sure: the survey's language reads it.
    expect(confidentLanguage('Chegou certinho')).toBeUndefined();
    expect(confidentLanguage('服务很慢')).toBeUndefined();
  });
});
