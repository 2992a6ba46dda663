import { describe, expect, it } from 'vitest';
import { analyseThemes, DEFAULT_THEMES, matchThemes, type Theme } from '../../shared/themes/themes.js';

const aspects = (comment: string, language: string, context = {}) =>
  Object.fromEntries(
    analyseThemes(comment, { language, themes: DEFAULT_THEMES, context }).map((aspect) => [aspect.theme, aspect.sentiment]),
  );

describe('matching that reads as a person reads', () => {
  it('keeps the three example comments of the first themes issue', () => {
    // The checkout there is where the queue was (below): waiting, not paying.
    expect(matchThemes('A fila estava enorme, esperei 40 minutos no caixa', { language: 'pt', themes: DEFAULT_THEMES })).toEqual(['wait']);
    expect(matchThemes('El personal fue muy amable', { language: 'es', themes: DEFAULT_THEMES })).toEqual(['staff']);
    expect(matchThemes('Prices are too high for what you get', { language: 'en', themes: DEFAULT_THEMES })).toEqual(['price']);
  });

  it('tells the senses apart: troca from troco, a box from the checkout, a stroller from the cart', () => {
    expect(matchThemes('Pedi a troca há 15 dias e ninguém retorna', { language: 'pt', themes: DEFAULT_THEMES })).toEqual(['staff']);
    expect(matchThemes('A moça errou o troco', { language: 'pt', themes: DEFAULT_THEMES })).toEqual(['payment']);
    expect(matchThemes('Caixa maravilhosa, super fácil de montar', { language: 'pt', themes: DEFAULT_THEMES })).toEqual([]);
    expect(matchThemes('Só tinha um caixa aberto', { language: 'pt', themes: DEFAULT_THEMES })).toEqual(['payment']);
    expect(matchThemes('O carrinho de bebê veio com a roda quebrada', { language: 'pt', themes: DEFAULT_THEMES })).toEqual(['product']);
    expect(matchThemes('O carrinho do site esvazia sozinho', { language: 'pt', themes: DEFAULT_THEMES })).toEqual(['digital']);
  });

  it('reads the checkout one waited at as the place of a queue, and the one paid at, or a box, as before', () => {
    expect(matchThemes('esperei 40 minutos no caixa', { language: 'pt', themes: DEFAULT_THEMES })).toEqual(['wait']);
    expect(matchThemes('Fiquei esperando no caixa e o cartão não passou', { language: 'pt', themes: DEFAULT_THEMES })).toEqual([
      'wait',
      'payment',
    ]);
    expect(matchThemes('Esperé 20 minutos en caja', { language: 'es', themes: DEFAULT_THEMES })).toEqual(['wait']);
    expect(matchThemes('Waited 20 minutes at the checkout', { language: 'en', themes: DEFAULT_THEMES })).toEqual(['wait']);
    expect(matchThemes('paguei no caixa', { language: 'pt', themes: DEFAULT_THEMES })).toEqual(['payment']);
    expect(matchThemes('o caixa errou o troco', { language: 'pt', themes: DEFAULT_THEMES })).toEqual(['payment']);
    // Waiting in another clause leaves the checkout what it is.
    expect(matchThemes('Esperei pouco, mas o caixa errou o troco', { language: 'pt', themes: DEFAULT_THEMES })).toEqual([
      'wait',
      'payment',
    ]);
    // A crushed box is a box (the checkout is "o caixa"): product, and delivery where it arrived so.
    expect(matchThemes('caixa amassada', { language: 'pt', themes: DEFAULT_THEMES, context: { kind: 'online' } })).toEqual(['product']);
    expect(matchThemes('Chegou com a caixa amassada', { language: 'pt', themes: DEFAULT_THEMES, context: { kind: 'online' } })).toEqual([
      'product',
      'delivery',
    ]);
    // A tenant with no wait theme: the checkout one waited at is not payment either.
    const noWait = DEFAULT_THEMES.filter((theme) => theme.slug !== 'wait');
    expect(matchThemes('esperei 40 minutos no caixa', { language: 'pt', themes: noWait })).toEqual([]);
  });

  it('reads waiting in an online journey as delivery, and arrival words in a place as no delivery', () => {
    expect(matchThemes('estou aguardando até hoje', { language: 'pt', themes: DEFAULT_THEMES, context: { kind: 'online' } })).toEqual([
      'delivery',
    ]);
    expect(matchThemes('estou aguardando até hoje', { language: 'pt', themes: DEFAULT_THEMES, context: { kind: 'in-store' } })).toEqual([
      'wait',
    ]);
    expect(matchThemes('a comida chegou fria', { language: 'pt', themes: DEFAULT_THEMES, context: { kind: 'in-store' } })).toEqual([
      'product',
    ]);
    expect(matchThemes('Até hoje não recebi meu pedido', { language: 'pt', themes: DEFAULT_THEMES, context: { kind: 'online' } })).toEqual([
      'delivery',
    ]);
  });

  it('finds the vocabulary customers write with', () => {
    expect(matchThemes('O correio extraviou minha encomenda', { language: 'pt', themes: DEFAULT_THEMES })).toEqual(['delivery']);
    expect(matchThemes('Faltou um item', { language: 'pt', themes: DEFAULT_THEMES })).toEqual(['delivery']);
    expect(matchThemes('Mandei mensagem 5 vezes, sem resposta, e nada de reembolso', { language: 'pt', themes: DEFAULT_THEMES })).toEqual([
      'staff',
    ]);
    expect(matchThemes('Tecido fino e cor errada', { language: 'pt', themes: DEFAULT_THEMES })).toEqual(['product']);
    expect(matchThemes('Fui cobrado duas vezes', { language: 'pt', themes: DEFAULT_THEMES })).toEqual(['payment']);
    expect(matchThemes('ótimo custo x benefício', { language: 'pt', themes: DEFAULT_THEMES })).toEqual(['price']);
  });

  it('never makes a theme of a generic word alone', () => {
    expect(matchThemes('Recebi o produto', { language: 'pt', themes: DEFAULT_THEMES, context: { kind: 'in-store' } })).toEqual([]);
    expect(matchThemes('Produto ruim', { language: 'pt', themes: DEFAULT_THEMES })).toEqual(['product']);
    expect(matchThemes('Gostei da loja e da compra', { language: 'pt', themes: DEFAULT_THEMES })).toEqual([]);
  });
});

describe('the polarity of each mention', () => {
  it('reads negation with its scope, in each language', () => {
    expect(aspects('Não chegou', 'pt', { kind: 'online' })).toEqual({ delivery: 'negative' });
    expect(aspects('Nada de chegar meu pedido', 'pt', { kind: 'online' })).toEqual({ delivery: 'negative' });
    expect(aspects('nunca recebi', 'pt', { kind: 'online' })).toEqual({ delivery: 'negative' });
    expect(aspects('Nunca llegó mi pedido', 'es', { kind: 'online' })).toEqual({ delivery: 'negative' });
    expect(aspects('It never arrived', 'en', { kind: 'online' })).toEqual({ delivery: 'negative' });
    expect(aspects('Fui atendido rapidinho, sem fila', 'pt', { kind: 'in-store' })).toEqual({ wait: 'positive', staff: 'positive' });
  });

  it('splits at a contrast: each side speaks of its own theme', () => {
    expect(aspects('chegou antes do prazo, mas veio quebrado', 'pt', { kind: 'online' })).toEqual({
      delivery: 'positive',
      product: 'negative',
    });
    expect(aspects('Rica comida pero tardaron una eternidad', 'es', { kind: 'in-store' })).toEqual({
      wait: 'negative',
      product: 'positive',
    });
    expect(aspects('Great food but the wait was ridiculous', 'en', { kind: 'in-store' })).toEqual({
      wait: 'negative',
      product: 'positive',
    });
  });

  it("takes the comment's own polarity for a mention with no opinion, and says mixed of both", () => {
    expect(aspects('Paguei no caixa', 'pt', { fallback: 'negative' })).toEqual({ payment: 'negative' });
    expect(aspects('Paguei no caixa', 'pt', { fallback: 'positive' })).toEqual({ payment: 'positive' });
    expect(aspects('O atendimento foi ótimo. O atendimento do gerente foi péssimo', 'pt')).toEqual({ staff: 'mixed' });
  });
});

describe("a theme's exclusions", () => {
  const parking: Theme = {
    slug: 'parking',
    name: { 'pt-BR': 'Estacionamento', es: 'Aparcamiento', en: 'Parking' },
    keywords: { 'pt-BR': ['vaga'], es: ['aparcamiento'], en: ['parking'] },
    exclude: { 'pt-BR': ['vaga de emprego'], es: [], en: ['parking ticket'] },
  };

  it('cancel its keywords in their sentence only, compared as written', () => {
    expect(matchThemes('Sem vaga nenhuma', { language: 'pt', themes: [parking] })).toEqual(['parking']);
    expect(matchThemes('Perguntei de uma vaga de emprego', { language: 'pt', themes: [parking] })).toEqual([]);
    expect(matchThemes('Perguntei de vagas de emprego. Nenhuma vaga livre no sábado', { language: 'pt', themes: [parking] })).toEqual([
      'parking',
    ]);
    expect(matchThemes('Got a parking ticket', { language: 'en', themes: [parking] })).toEqual([]);
  });
});

describe('the matcher at the schema bounds', () => {
  it('compiles 100 themes x 3 languages x 50 keywords and matches a long comment (the benchmark, run once so it cannot rot)', async () => {
    const { LONG_COMMENT, matcherAtBounds, themesAtBounds } = await import('../../bench/themes-bench.js');
    expect(LONG_COMMENT).toHaveLength(2000);
    const themes = themesAtBounds();
    expect(themes).toHaveLength(100);
    expect(matchThemes('palavra0 e nada mais', { language: 'pt', themes })).toEqual(['theme-0']);
    expect(await matcherAtBounds(2)).toContain('under 5 ms');
  }, 60_000);
});
