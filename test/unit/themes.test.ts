import { describe, expect, it } from 'vitest';
import { uncoveredPhrases } from '../../shared/themes/phrases.js';
import { DEFAULT_THEMES, matchThemes, type Theme } from '../../shared/themes/themes.js';

describe("matching a comment with the tenant's themes", () => {
  it.each([
    ['A fila estava enorme, esperei 40 minutos no caixa', 'pt', ['wait']],
    ['El personal fue muy amable', 'es', ['staff']],
    ['Prices are too high for what you get', 'en', ['price']],
    ['O banheiro estava SUJO e o aplicativo travou', 'pt', ['cleanliness', 'digital']],
    ['La entrega llegó con retraso', 'es', ['delivery']],
  ])('finds the default themes of "%s"', (comment, language, expected) => {
    expect(matchThemes(comment, { language, themes: DEFAULT_THEMES })).toEqual(expected);
  });

  const parking: Theme = {
    slug: 'parking',
    name: { 'pt-BR': 'Estacionamento', es: 'Aparcamiento', en: 'Parking' },
    keywords: { 'pt-BR': ['vaga de estacionamento'], es: ['aparcamiento'], en: ['parking lot'] },
  };

  it('ignores case and accents and takes plurals, and a keyword may be a phrase', () => {
    expect(matchThemes('Nenhuma VAGAS DE ESTACIONAMENTO livre', { language: 'pt', themes: [parking] })).toEqual(['parking']);
    expect(matchThemes('The parking lots were full', { language: 'en', themes: [parking] })).toEqual(['parking']);
    expect(matchThemes('Preços altos, promoçoes falsas', { language: 'pt', themes: DEFAULT_THEMES })).toEqual(['price']);
  });

  it('wants the words of a phrase together and in order', () => {
    expect(matchThemes('Estacionamento sem nenhuma vaga', { language: 'pt', themes: [parking] })).toEqual([]);
  });

  it('reads a comment in another language with the keywords of all three', () => {
    expect(matchThemes('parking lot pieno, aparcamiento', { language: 'it', themes: [parking] })).toEqual(['parking']);
  });
});

describe('the key phrases no theme covers (suggestions)', () => {
  it('leaves out a phrase a theme covers, accents and all', () => {
    // "aplicación" is a keyword of digital: its accent must not make it a suggestion of its own.
    expect(uncoveredPhrases(['aplicación', 'estacionamiento lleno'], 'es', DEFAULT_THEMES)).toEqual([
      { key: 'estacion llen', phrase: 'estacionamiento lleno' },
    ]);
    expect(uncoveredPhrases(['preço', 'atendente', 'Saída  Bloqueada'], 'pt', DEFAULT_THEMES).map((p) => p.phrase)).toEqual([
      'saída bloqueada',
    ]);
  });
});
