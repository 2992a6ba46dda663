import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { redact } from '../../shared/themes/redact.js';

describe('redacting a comment before it leaves the service', () => {
  it.each([
    [
      'pt-BR',
      'Meu CPF é 123.456.789-09, liguem no (11) 91234-5678 ou escrevam para ana.souza@exemplo.com.br',
      'Meu CPF é [cpf], liguem no [phone] ou escrevam para [email]',
    ],
    [
      'pt-BR',
      'cobraram duas vezes no cartão 4111 1111 1111 1111, cpf 12345678909, whatsapp +55 11 91234-5678',
      'cobraram duas vezes no cartão [card], cpf [cpf], whatsapp [phone]',
    ],
    [
      'es',
      'Me cobraron dos veces en la tarjeta 5500-0000-0000-0004, llamen al +34 612 345 678 o a juan@correo.es',
      'Me cobraron dos veces en la tarjeta [card], llamen al [phone] o a [email]',
    ],
    ['es', 'Mi teléfono es 011 4567-8901 y el CPF de mi esposa 987.654.321-00', 'Mi teléfono es [phone] y el CPF de mi esposa [cpf]'],
    [
      'en',
      'Call me at +1 415-555-0100 or mail john.doe+shop@example.com, card 378282246310005',
      'Call me at [phone] or mail [email], card [card]',
    ],
    [
      'en',
      'They charged my card 6011111111111117 twice; my number is (415) 555-0100',
      'They charged my card [card] twice; my number is [phone]',
    ],
  ])('takes every CPF, phone, e-mail and card number out of a comment in %s', (_language, comment, expected) => {
    expect(redact(comment)).toBe(expected);
  });

  it.each([
    ['cartão 4111.1111.1111.1111 ok', 'cartão [card] ok'],
    ['cartao4111111111111111', 'cartao[card]'],
    ['tarjeta 4111  1111\u20131111/1111', 'tarjeta [card]'],
    ['cpf \uff11\uff12\uff13.\uff14\uff15\uff16.\uff17\uff18\uff19-\uff10\uff19', 'cpf [cpf]'],
    ['cpf \u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669\u0660\u0669', 'cpf [cpf]'],
    ['cpf 123\u200b456\u200b789_09 e 123,456,789,09', 'cpf [cpf] e [cpf]'],
    ['me liga 11 98765\u20134321 ou 11/98765/4321', 'me liga [phone] ou [phone]'],
    ['joao\uff20x.com, ana @ exemplo.com.br, jo\u200bse@ex\u200bemplo.com', '[email], [email], [email]'],
  ])('takes out a value spelled to slip past: %j', (comment, expected) => {
    expect(redact(comment)).toBe(expected);
  });

  it.each([
    'A fila estava enorme, esperei 40 minutos no caixa',
    'El personal fue muy amable, pagué 120,50 euros',
    'Prices are too high for what you get: 3 items for $45.99 in 2024',
  ])('leaves a comment with no personal data as it is: %s', (comment) => {
    expect(redact(comment)).toBe(comment);
  });
});

/*
 * The spellings a customer (or a red team) uses to slip a value past a pattern: other scripts' digits, zero-width
 * spaces, every dash, slashes, double spaces, a value glued to the word before it. fast-check generates each kind's
 * values and spellings, embeds them in a comment in each language, and none may survive.
 */
const SCRIPTS = [0x30, 0xff10, 0x660, 0x6f0, 0x966, 0x9e6, 0xe50, 0x1d7ce, 0x1d7d8, 0x1d7ec];
const ZWSP = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad'];
const DASHES = ['-', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2212', '\ufe63', '\uff0d'];

const digitsOf = (length: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length });
const luhnDigit = (digits: number[]) => {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits[digits.length - 1 - i]!;
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
};

/** A spelling of ASCII text: its digits in one script, zero-width characters strewn between characters. */
const spelt = fc
  .record({ script: fc.constantFrom(...SCRIPTS), zw: fc.array(fc.tuple(fc.nat(40), fc.constantFrom(...ZWSP)), { maxLength: 3 }) })
  .map(({ script, zw }) => (text: string) => {
    const chars = [...text].map((c) => (/\d/.test(c) ? String.fromCodePoint(script + Number(c)) : c));
    for (const [at, mark] of zw) chars.splice(at % (chars.length + 1), 0, mark);
    return chars.join('');
  });

const separator = (options: string[]) => fc.constantFrom(...options);
const grouped = (digits: number[], sizes: number[], sep: string) => {
  const parts: string[] = [];
  let at = 0;
  for (const size of sizes) parts.push(digits.slice(at, (at += size)).join(''));
  return parts.join(sep);
};

const KINDS = {
  card: fc
    .record({
      body: fc.oneof(digitsOf(15), digitsOf(14)),
      sep: separator(['', ' ', '  ', '.', '/', '_', ...DASHES]),
    })
    .map(({ body, sep }) => {
      const digits = [...body, luhnDigit(body)];
      return grouped(digits, digits.length === 16 ? [4, 4, 4, 4] : [4, 6, 5], sep);
    }),
  cpf: fc
    .record({
      digits: digitsOf(11),
      sep: separator(['', ' ', '_', ',', '.', ...DASHES]),
      last: separator(['', '-', '\u2013', '/', ' ', '_']),
    })
    .map(({ digits, sep, last }) => `${grouped(digits.slice(0, 9), [3, 3, 3], sep)}${last}${digits.slice(9).join('')}`),
  phone: fc
    .record({ area: digitsOf(2), local: digitsOf(8), dash: separator(['/', ' / ', ...DASHES]), style: fc.nat(3) })
    .map(({ area, local, dash, style }) => {
      const [a, l] = [area.join(''), `9${local.slice(0, 4).join('')}${dash}${local.slice(4).join('')}`];
      return [`(${a}) ${l}`, `${a}${dash}${l}`, `+55 ${a} ${l}`, `${a} ${l}`][style]!;
    }),
  email: fc
    .record({
      user: fc.stringMatching(/^[a-z]{4,8}[0-9]$/),
      domain: fc.stringMatching(/^[a-z]{5,9}[0-9]$/),
      tld: fc.constantFrom('com', 'com.br', 'es', 'net'),
      at: fc.constantFrom('@', '\uff20', ' @ ', ' @', '@ ', '\ufe6b'),
    })
    .map(({ user, domain, tld, at }) => `${user}${at}${domain}.${tld}`),
};

const COMMENTS: Record<string, [before: string[], after: string[]]> = {
  'pt-BR': [
    ['Cobraram duas vezes no cartão ', 'meu cpf é ', 'me liga no ', 'cartao', 'escrevam para ', 'Péssimo atendimento, contato: '],
    ['', ', obrigado', ' por favor!', '. A loja estava suja.', '\nAtt.'],
  ],
  es: [
    ['Me cobraron dos veces en la tarjeta ', 'mi documento ', 'llámenme al ', 'tarjeta', 'escríbanme a ', 'Pésima atención: '],
    ['', ', gracias', ' por favor.', '. La tienda estaba sucia.'],
  ],
  en: [
    ['They charged my card ', 'my id ', 'call me at ', 'card', 'mail me at ', 'Terrible service, reach me: '],
    ['', ', thanks', ' please!', '. The store was dirty.'],
  ],
};

describe('redacting every spelling of a value', () => {
  const figures: Record<string, { cases: number; survivors: number }> = {};
  afterAll(() => console.info('redaction property test:', JSON.stringify(figures)));

  for (const [kind, value] of Object.entries(KINDS)) {
    for (const [language, [befores, afters]] of Object.entries(COMMENTS)) {
      it(`takes out every ${kind} in a comment in ${language}`, () => {
        const tally = (figures[`${kind} ${language}`] = { cases: 0, survivors: 0 });
        fc.assert(
          fc.property(value, spelt, fc.constantFrom(...befores), fc.constantFrom(...afters), (plain, spell, before, after) => {
            const comment = `${before}${spell(plain)}${after}`;
            const out = redact(comment);
            tally.cases++;
            // The comments hold no digit of their own: any digit left is the value's; an e-mail's parts end in one.
            const survived = /\d/.test(out) || (kind === 'email' && out.includes('@'));
            if (survived) tally.survivors++;
            expect(out, JSON.stringify(comment)).not.toMatch(/\d|@/);
          }),
          { numRuns: 400, seed: 58 },
        );
      });
    }
  }

  const ordinary = fc.oneof(
    fc
      .record({ d: fc.integer({ min: 1, max: 28 }), m: fc.integer({ min: 1, max: 12 }), y: fc.integer({ min: 2020, max: 2027 }) })
      .map(({ d, m, y }) => [`Comprei em ${d}/${m}/${y} e voltei em ${d}.${m}.${y}`, `del ${d}/${m} al ${d}-${m}-${y}`][(d + m) % 2]!),
    fc
      .record({ r: fc.integer({ min: 1, max: 99_999 }), c: fc.integer({ min: 0, max: 99 }) })
      .map(({ r, c }) => `Paguei R$ ${r.toLocaleString('pt-BR')},${String(c).padStart(2, '0')} por 3 itens, $${r}.${c} in en`),
    fc.integer({ min: 1, max: 9_999_999 }).map((n) => `Pedido ${n} chegou, order #${n} took 40 minutes, de 10:30 a 11:15`),
  );

  it('leaves dates, prices and short order numbers as they are', () => {
    let cases = 0;
    fc.assert(
      fc.property(ordinary, (comment) => {
        cases++;
        expect(redact(comment)).toBe(comment);
      }),
      { numRuns: 1000, seed: 58 },
    );
    figures['ordinary text kept'] = { cases, survivors: 0 };
  });
});
