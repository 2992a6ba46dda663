import { bucketOf } from '../settings/scales.js';
import type { CasesConfig } from '../cases/config.js';
import type { CaseRuleConfig, JourneyConfig } from '../settings/journeys.js';
import type { Settings } from '../settings/settings.js';
import type { WeekDay } from '../settings/scales.js';
import { DEFAULT_LOCALE, timeZoneOf, type Locale } from '../locale.js';

/** A tenant's case settings with every default filled in. */
export interface CasesSettings {
  rootCauses: string[];
  workingHours: { timeZone: string; days: WeekDay[]; from: string; to: string };
}

/**
 * The root causes of a tenant that states none, in the tenant's language: service, product, price, lead time, other.
 * They are values, not labels: a resolved case stores the one chosen, and the API accepts exactly these, so they are
 * the tenant's configuration's defaults (as the default themes are) rather than words of a catalogue.
 */
export const DEFAULT_ROOT_CAUSES: Record<Locale, string[]> = {
  'pt-BR': ['Atendimento', 'Produto', 'Preço', 'Prazo', 'Outro'],
  es: ['Atención', 'Producto', 'Precio', 'Plazo', 'Otro'],
  en: ['Service', 'Product', 'Price', 'Lead time', 'Other'],
};

/** The case settings of a tenant that states none: 09:00-18:00 Monday to Friday in its time zone. */
export const DEFAULT_CASES: { workingHours: Omit<CasesSettings['workingHours'], 'timeZone'> } = {
  workingHours: { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '18:00' },
};

export const casesSettingsOf = (settings: Pick<Settings, 'cases' | 'timeZone'> & { locale?: Locale }): CasesSettings => {
  const cases: CasesConfig = settings.cases ?? {};
  const hours = cases.workingHours ?? DEFAULT_CASES.workingHours;
  return {
    rootCauses: cases.rootCauses ?? DEFAULT_ROOT_CAUSES[settings.locale ?? DEFAULT_LOCALE],
    workingHours: { ...hours, timeZone: cases.workingHours?.timeZone ?? timeZoneOf(settings) },
  };
};

/** A journey's case rule, its defaults applied: NPS detractors, or the low third of another scale; 24 h; no WhatsApp. */
export const caseRuleOf = (journey: Pick<JourneyConfig, 'indicator' | 'cases'>): CaseRuleConfig =>
  journey.cases ?? { open: journey.indicator === 'nps' ? 'detractor' : 'low', deadlineHours: 24, whatsapp: false };

/** Whether an answer (its main score and comment) opens a case under a journey's rule. */
export function opensCase(journey: Pick<JourneyConfig, 'indicator' | 'cases'>, score: number, comment: string | null): boolean {
  const { open } = caseRuleOf(journey);
  if (open === 'none') return false;
  if (open === 'comment') return !!comment?.trim();
  if (typeof open === 'object') return score < open.below;
  const bucket = bucketOf(journey.indicator, score);
  // `detractor` on a scale without detractors means its low third, and `low` on NPS its detractors: the unhappy end.
  return bucket === 'detractor' || bucket === 'low';
}
