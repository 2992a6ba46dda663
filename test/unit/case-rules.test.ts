import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { caseDueAt } from '../../shared/cases/deadline.js';
import { caseRuleOf, casesSettingsOf, DEFAULT_CASES, opensCase } from '../../shared/cases/rules.js';
import { ConfigDocument } from '../../shared/tenants/config-schema.js';

const nps = { indicator: 'nps' as const };
const csat = { indicator: 'csat' as const };

describe('case rules', () => {
  it('opens a case for an NPS detractor (0-6) by default, not for a passive or a promoter', () => {
    expect([0, 6].map((score) => opensCase(nps, score, null))).toEqual([true, true]);
    expect([7, 10].map((score) => opensCase(nps, score, null))).toEqual([false, false]);
  });

  it('opens a case for the low bucket of another scale by default (csat 1-2)', () => {
    expect([1, 2, 3, 5].map((score) => opensCase(csat, score, null))).toEqual([true, true, false, false]);
  });

  it('follows a journey that opens below a score, on any comment, or never', () => {
    expect(opensCase({ ...nps, cases: { open: { below: 8 }, deadlineHours: 24, whatsapp: false } }, 7, null)).toBe(true);
    expect(opensCase({ ...nps, cases: { open: { below: 8 }, deadlineHours: 24, whatsapp: false } }, 8, null)).toBe(false);
    const comment = { ...nps, cases: { open: 'comment' as const, deadlineHours: 24, whatsapp: false } };
    expect([opensCase(comment, 10, 'ótimo'), opensCase(comment, 0, '  '), opensCase(comment, 0, null)]).toEqual([true, false, false]);
    expect(opensCase({ ...nps, cases: { open: 'none', deadlineHours: 24, whatsapp: false } }, 0, 'péssimo')).toBe(false);
  });

  it('is due deadlineHours business hours after it opened (24 by default), 09:00-18:00 Monday to Friday by default', () => {
    expect(caseRuleOf(nps)).toEqual({ open: 'detractor', deadlineHours: 24, whatsapp: false });
    const opened = new Date('2026-11-23T10:00:00.000Z');
    // Monday 07:00 in São Paulo: Monday's 9 hours, Tuesday's 9, then 6 on Wednesday (15:00 local).
    expect(caseDueAt(opened, 24, casesSettingsOf({}).workingHours).toISOString()).toBe('2026-11-25T18:00:00.000Z');
  });

  it("counts the default working hours in the tenant's time zone, and working hours that name a zone in theirs", () => {
    const manaus = casesSettingsOf({ timeZone: 'America/Manaus' }).workingHours;
    expect(manaus).toEqual({ ...DEFAULT_CASES.workingHours, timeZone: 'America/Manaus' });
    // Monday 06:00 in Manaus: Monday's 9 hours, Tuesday's 9, then 6 on Wednesday (15:00 local, 19:00 UTC).
    expect(caseDueAt(new Date('2026-11-23T10:00:00.000Z'), 24, manaus).toISOString()).toBe('2026-11-25T19:00:00.000Z');
    const ownZone = { timeZone: 'Europe/Lisbon', days: ['mon' as const], from: '08:00', to: '12:00' };
    expect(casesSettingsOf({ timeZone: 'America/Manaus', cases: { workingHours: ownZone } }).workingHours).toEqual(ownZone);
  });

  it("offers the default root causes in the tenant's language, and a tenant's own in any", () => {
    const hours = { timeZone: 'America/Bogota' };
    expect(casesSettingsOf({ ...hours, locale: 'es' }).rootCauses).toEqual(['Atención', 'Producto', 'Precio', 'Plazo', 'Otro']);
    expect(casesSettingsOf({ ...hours, locale: 'en' }).rootCauses).toEqual(['Service', 'Product', 'Price', 'Lead time', 'Other']);
    expect(casesSettingsOf({ ...hours, locale: 'pt-BR' }).rootCauses).toEqual(['Atendimento', 'Produto', 'Preço', 'Prazo', 'Outro']);
    expect(casesSettingsOf({ ...hours, locale: 'es', cases: { rootCauses: ['Fila'] } }).rootCauses).toEqual(['Fila']);
  });

  it("takes the rules in the admin document and the tenant file's schema, naming each wrong field", () => {
    const document = (journey: unknown, cases: unknown = {}) => ({
      name: 'x',
      journeys: [{ id: 1, slug: 'loja', indicator: 'nps', classes: [], channels: ['email'], ...(journey as object) }],
      cases,
    });
    const ok = v.parse(ConfigDocument, document({ cases: { open: { below: 5 } } }, { rootCauses: ['Fila'] }));
    expect(ok.journeys[0]!.cases).toEqual({ open: { below: 5 }, deadlineHours: 24, whatsapp: false });
    expect(casesSettingsOf(ok)).toEqual({
      rootCauses: ['Fila'],
      workingHours: { ...DEFAULT_CASES.workingHours, timeZone: 'America/Sao_Paulo' },
    });
    const bad = v.safeParse(
      ConfigDocument,
      document(
        { cases: { open: 'sometimes', deadlineHours: 0 } },
        { rootCauses: [], workingHours: { timeZone: 'Mars/Base', days: ['monday'], from: '9h', to: '18:00' } },
      ),
    );
    const paths = bad.issues!.map((issue) => v.getDotPath(issue));
    expect(paths).toEqual(
      expect.arrayContaining([
        'journeys.0.cases.open',
        'journeys.0.cases.deadlineHours',
        'cases.rootCauses',
        'cases.workingHours.timeZone',
        'cases.workingHours.days.0',
        'cases.workingHours.from',
      ]),
    );
  });
});
