import { describe, expect, it } from 'vitest';
import { alertEmail } from '../../shared/cases/alert.js';
import type { CaseRecord } from '../../shared/cases/record.js';

const record = {
  id: 42,
  score: 3,
  comment: 'Fila <enorme> & lenta',
  dueAt: '2026-11-24T15:00:00.000Z',
  owner: null,
} as CaseRecord;
const input = { record, company: 'Café Aurora', store: 'Loja Paulista', employee: 'Ana Souza', link: 'http://localhost:3000/app/cases/42' };

describe('the case alert e-mail', () => {
  it("is written in the tenant's language, with the score, store, employee, comment, due time and link", () => {
    const pt = alertEmail({ ...input, locale: 'pt-BR', timeZone: 'America/Sao_Paulo' });
    expect(pt.subject).toBe('Novo caso: nota 3 na Loja Paulista');
    expect(pt.text).toContain('atendido por Ana Souza');
    expect(pt.text).toContain('Fila <enorme> & lenta');
    expect(pt.text).toContain('24/11/2026, 12:00');
    expect(pt.text).toContain('http://localhost:3000/app/cases/42');
    const en = alertEmail({ ...input, locale: 'en', timeZone: 'America/Sao_Paulo' });
    expect(en.subject).toBe('New case: score 3 at Loja Paulista');
  });

  it("writes the due time in the tenant's time zone, the locale's way, naming the zone", () => {
    expect(alertEmail({ ...input, locale: 'pt-BR', timeZone: 'America/Sao_Paulo' }).text).toContain('24/11/2026, 12:00 BRT');
    expect(alertEmail({ ...input, locale: 'es', timeZone: 'Europe/Madrid' }).text).toContain('24/11/2026, 16:00 CET');
    expect(alertEmail({ ...input, locale: 'en', timeZone: 'America/New_York' }).text).toContain('11/24/2026, 10:00 AM EST');
  });

  it("escapes the customer's words in the HTML", () => {
    const { html } = alertEmail({ ...input, locale: 'pt-BR', timeZone: 'America/Sao_Paulo' });
    expect(html).toContain('Fila &lt;enorme&gt; &amp; lenta');
    expect(html).not.toContain('<enorme>');
  });

  it('names the owner when the case has one, in each language', () => {
    const owned = { ...input, record: { ...record, owner: 'ana@loja.test' } };
    expect(alertEmail({ ...owned, locale: 'pt-BR', timeZone: 'America/Sao_Paulo' }).text).toContain('Responsável: ana@loja.test');
    expect(alertEmail({ ...owned, locale: 'es', timeZone: 'America/Sao_Paulo' }).html).toContain('Responsable: ana@loja.test');
    expect(alertEmail({ ...owned, locale: 'en', timeZone: 'America/Sao_Paulo' }).text).toContain('Owner: ana@loja.test');
    expect(alertEmail({ ...input, locale: 'pt-BR', timeZone: 'America/Sao_Paulo' }).text).not.toContain('Responsável');
  });
});
