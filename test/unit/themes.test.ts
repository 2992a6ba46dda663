import { describe, expect, it } from 'vitest';
import { DEFAULT_THEMES, matchThemes, type Theme } from '../../shared/themes/themes.js';

describe("matching a comment with the tenant's themes", () => {
  it.each([
    ['A fila estava enorme, esperei 40 minutos no caixa', 'pt', ['wait', 'payment']],
    ['El personal fue muy amable', 'es', ['staff']],
    ['Prices are too high for what you get', 'en', ['price']],
    ['O banheiro estava SUJO e o aplicativo travou', 'pt', ['cleanliness', 'digital']],
    ['La entrega llegó con retraso', 'es', ['delivery']],
  ])('finds the default themes of "%s"', (comment, language, expected) => {
    expect(matchThemes(comment, language, DEFAULT_THEMES)).toEqual(expected);
  });

  const parking: Theme = {
    slug: 'parking',
    name: { 'pt-BR': 'Estacionamento', es: 'Aparcamiento', en: 'Parking' },
    keywords: { 'pt-BR': ['vaga de estacionamento'], es: ['aparcamiento'], en: ['parking lot'] },
  };

  it('ignores case and accents and takes plurals, and a keyword may be a phrase', () => {
    expect(matchThemes('Nenhuma VAGAS DE ESTACIONAMENTO livre', 'pt', [parking])).toEqual(['parking']);
    expect(matchThemes('The parking lots were full', 'en', [parking])).toEqual(['parking']);
    expect(matchThemes('Preços altos, promoçoes falsas', 'pt', DEFAULT_THEMES)).toEqual(['price']);
  });

  it('wants the words of a phrase together and in order', () => {
    expect(matchThemes('Estacionamento sem nenhuma vaga', 'pt', [parking])).toEqual([]);
  });

  it('reads a comment in another language with the keywords of all three', () => {
    expect(matchThemes('parking lot pieno, aparcamiento', 'it', [parking])).toEqual(['parking']);
  });
});
