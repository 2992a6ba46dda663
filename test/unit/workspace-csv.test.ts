import { describe, expect, it } from 'vitest';
import type { AnswerBody } from '../../shared/answers/schema.js';
import { workspaceCsv } from '../../shared/answers/workspace-csv.js';

const answer = (over: Partial<AnswerBody> = {}): AnswerBody => ({
  id: 7,
  transaction_id: 'T-1',
  answered_at: '2026-11-23T10:05:00.000Z',
  journey: { id: 1, slug: 'loja', indicator: 'nps' },
  store: 1,
  employee: 2,
  customer: { id: 3, name: 'Maria' },
  channel: 'email',
  score: 9,
  bucket: 'promoter',
  comment: 'Ótimo',
  classes: [{ class_id: 2, label: 'Limpeza', score: 4.5 }],
  sentiment: null,
  themes: null,
  aspects: null,
  ...over,
});
const options = {
  timeZone: 'America/Sao_Paulo',
  journeys: [{ id: 1, slug: 'loja', name: 'Compra na loja' }],
  classes: [
    { id: 1, label: 'Atendimento' },
    { id: 2, label: 'Limpeza' },
  ],
};
const names = { stores: new Map([[1, 'Centro']]), employees: new Map([[2, 'Ana']]) };

describe('the workspace export as CSV', () => {
  it('writes pt-BR with a BOM, headers in Portuguese, ; between cells, a decimal comma and São Paulo time', () => {
    // Prepare
    const csv = workspaceCsv({ locale: 'pt-BR', ...options });
    // Act
    const file = csv.header() + csv.rows([answer()], names);
    // Assess
    expect(file).toBe(
      '\uFEFFRespondida em (America/Sao_Paulo);Jornada;Código da loja;Loja;Código do funcionário;Funcionário;Código do cliente;' +
        'Cliente;Canal;Nota;Faixa;Comentário;Nota: Atendimento;Nota: Limpeza;Resposta (código);Transação (código)\r\n' +
        '23/11/2026, 07:05:00;Compra na loja;1;Centro;2;Ana;3;Maria;email;9;Promotor;Ótimo;;4,5;7;T-1\r\n',
    );
  });

  it('writes es with ; and a decimal comma, and en with , and a decimal point, each in its words', () => {
    const es = workspaceCsv({ locale: 'es', ...options });
    expect(es.header()).toMatch(/^\uFEFFRespondida el \(America\/Sao_Paulo\);Recorrido;Código de la tienda;Tienda;/);
    expect(es.rows([answer({ score: 3, bucket: 'detractor' })], names)).toBe(
      '23/11/26, 7:05:00;Compra na loja;1;Centro;2;Ana;3;Maria;email;3;Detractor;Ótimo;;4,5;7;T-1\r\n',
    );
    const en = workspaceCsv({ locale: 'en', ...options, timeZone: 'Europe/Lisbon' });
    expect(en.header()).toMatch(/^\uFEFFAnswered at \(Europe\/Lisbon\),Journey,Store code,Store,Employee code,Employee,/);
    // Quoted: English writes a comma inside the time.
    expect(en.rows([answer()], names)).toMatch(
      /^"11\/23\/26, 10:05:00\sAM",Compra na loja,1,Centro,2,Ana,3,Maria,email,9,Promoter,Ótimo,,4\.5,7,T-1\r\n$/,
    );
  });

  it('quotes a cell holding the separator, a quote or a line break, and neutralises a formula', () => {
    const csv = workspaceCsv({ locale: 'pt-BR', ...options });
    const row = (comment: string, name = 'Maria') => csv.rows([answer({ comment, customer: { id: 3, name } })], names);
    expect(row('ruim; muito "ruim"\nmesmo')).toContain(';Promotor;"ruim; muito ""ruim""\nmesmo";;4,5;');
    expect(row('a, b')).toContain(';Promotor;a, b;;4,5;');
    for (const start of ['=', '+', '-', '@'])
      expect(row(`${start}HYPERLINK("x")`)).toContain(`;Promotor;"'${start}HYPERLINK(""x"")";;4,5;`);
    expect(row('ok', '=1+1')).toContain(`;3;"'=1+1";email;`);
  });

  it('leaves a name it does not know empty beside the id, and says a score off the scale', () => {
    const csv = workspaceCsv({ locale: 'en', ...options });
    const cells = csv.rows([answer({ store: 9, bucket: null, customer: { id: 3, name: null }, comment: null })], names).split(',');
    expect(cells.slice(3, 5)).toEqual(['9', '']);
    expect(cells.slice(8, 13)).toEqual(['', 'email', '9', 'Off the scale', '']);
  });
});
