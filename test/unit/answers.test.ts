import { describe, expect, it } from 'vitest';
import { answersCsv, csvCell } from '../../shared/answers/csv.js';
import { bucketOf, scoresOf, type AnswerBody } from '../../shared/answers/schema.js';
import { preferredType } from '../../shared/http/negotiate.js';

describe('answer buckets', () => {
  it('puts NPS scores in detractor (0-6), passive (7-8) and promoter (9-10)', () => {
    expect([0, 6, 7, 8, 9, 10].map((score) => bucketOf('nps', score))).toEqual([
      'detractor',
      'detractor',
      'passive',
      'passive',
      'promoter',
      'promoter',
    ]);
    expect(scoresOf('nps', 'low')).toBeNull();
  });

  it("puts other scales' scores below, at and above their middle", () => {
    expect([1, 2, 3, 4, 5].map((score) => bucketOf('csat', score))).toEqual(['low', 'low', 'mid', 'high', 'high']);
    expect([1, 3, 4, 5, 7].map((score) => bucketOf('ces', score))).toEqual(['low', 'low', 'mid', 'high', 'high']);
    expect([0, 1].map((score) => bucketOf('binary', score))).toEqual(['low', 'high']);
    expect(scoresOf('binary', 'mid')).toBeNull();
    expect(scoresOf('csat', 'detractor')).toBeNull();
    expect(bucketOf('csat', 9)).toBeNull();
  });
});

describe('answers as CSV', () => {
  it('escapes every cell a spreadsheet would read as a formula, and quotes what RFC 4180 asks', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${start}1+1`)).toBe(`"'${start}1+1"`);
    expect(csvCell('a, "b"\nc')).toBe('"a, ""b""\nc"');
    expect(csvCell('Bom')).toBe('Bom');
    expect(csvCell(null)).toBe('');
    expect(csvCell(-1)).toBe('-1');
  });

  it('starts with a BOM and has a column per class of the tenant on every page', () => {
    const answer: AnswerBody = {
      id: 7,
      transaction_id: 'T-1',
      answered_at: '2026-11-23T10:00:00.000Z',
      journey: { id: 1, slug: 'loja', indicator: 'nps' },
      store: 1,
      employee: 2,
      customer: { id: 3, name: 'Maria' },
      channel: 'email',
      score: 9,
      bucket: 'promoter',
      comment: 'Ótimo',
      classes: [{ class_id: 2, label: 'Limpeza', score: 5 }],
      sentiment: null,
      themes: null,
      aspects: null,
    };
    const classes = [
      { id: 1, label: 'Atendimento' },
      { id: 2, label: 'Limpeza' },
    ];
    expect(answersCsv([answer], classes)).toBe(
      '\uFEFFid,transaction_id,answered_at,journey,store,employee,customer,customer_name,channel,score,bucket,comment,class 1 Atendimento,class 2 Limpeza\r\n' +
        '7,T-1,2026-11-23T10:00:00.000Z,loja,1,2,3,Maria,email,9,promoter,Ótimo,,5\r\n',
    );
    expect(answersCsv([], classes).split('\r\n')).toHaveLength(2);
  });
});

describe('content negotiation', () => {
  const offered = ['application/json', 'text/csv'] as const;
  it('answers CSV only when the request prefers it', () => {
    expect(preferredType('text/csv', offered)).toBe('text/csv');
    expect(preferredType('text/csv, application/json;q=0.5', offered)).toBe('text/csv');
    expect(preferredType('application/json, text/csv', offered)).toBe('application/json');
    expect(preferredType('text/*', offered)).toBe('text/csv');
    expect(preferredType('*/*', offered)).toBe('application/json');
    expect(preferredType(undefined, offered)).toBe('application/json');
    expect(preferredType('text/html', offered)).toBe('application/json');
    expect(preferredType('text/csv;q=0', offered)).toBe('application/json');
  });
});
