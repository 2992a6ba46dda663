import { describe, expect, it } from 'vitest';
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
    'A fila estava enorme, esperei 40 minutos no caixa',
    'El personal fue muy amable, pagué 120,50 euros',
    'Prices are too high for what you get: 3 items for $45.99 in 2024',
  ])('leaves a comment with no personal data as it is: %s', (comment) => {
    expect(redact(comment)).toBe(comment);
  });
});
