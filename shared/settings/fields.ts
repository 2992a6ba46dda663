import * as v from 'valibot';
import { nameField as name } from '../fields.js';
import { LOCALES, type Locale } from '../locale.js';
import { INDICATORS, type Bucket, type Indicator } from './scales.js';

/**
 * The field rules the slices of a tenant's configuration share: languages, texts per language, addresses, times,
 * bounded lists without repeats. Each concept's `config.ts` builds its slice from them (shared/settings/settings.ts).
 */

export const indicator = v.picklist(Object.keys(INDICATORS) as Indicator[], `must be one of ${Object.keys(INDICATORS).join(', ')}`);

export const locale = v.picklist(LOCALES, `must be one of ${LOCALES.join(', ')}`);

/** One of `schema` per language (`satisfies` keeps it to LOCALES: a language added there fails to compile here). */
export const perLocale = <S>(schema: () => S) => ({ 'pt-BR': schema(), es: schema(), en: schema() }) satisfies Record<Locale, S>;

/** A text the tenant writes once per language it speaks; a language it leaves out gets the built-in text. */
export const localized = (max: number) => v.strictObject(perLocale(() => v.optional(name(max))));
export type LocalizedText = Partial<Record<Locale, string>>;

export const byBucket = (max: number) => {
  const text = () => v.optional(localized(max));
  return v.strictObject({
    detractor: text(),
    passive: text(),
    promoter: text(),
    low: text(),
    mid: text(),
    high: text(),
  } satisfies Record<Bucket, unknown>);
};

export const address = v.pipe(
  v.string('must be a string'),
  v.maxLength(254, 'must be at most 254 characters'),
  v.email('must be an e-mail address'),
);

/** A setting that is on or off, `fallback` when left out (the analytics' comments, the daily digest). */
export const flag = <const TDefault extends boolean>(fallback: TDefault) => v.optional(v.boolean('must be true or false'), fallback);

/** A whole number from `min` to `max` (days, hours, a count). */
export const wholeNumber = (min: number, max: number) =>
  v.pipe(
    v.number('must be a number'),
    v.integer('must be an integer'),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

export const clockTime = v.pipe(v.string('must be a string'), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time such as 21:00'));

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const timeZone = v.pipe(
  v.string('must be a string'),
  v.maxLength(64, 'must be at most 64 characters'),
  v.check(isTimeZone, 'must be an IANA time zone such as America/Sao_Paulo'),
);

export const whatsAppLanguage = v.pipe(
  v.string('must be a string'),
  v.regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'must be a language code such as pt_BR'),
);

export const atMost = <T>(limit: number, what: string) => v.maxLength<T[], number, string>(limit, `may list at most ${limit} ${what}`);

export const uniqueBy = <T>(field: keyof T & string, label: string) =>
  v.rawCheck<T[]>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const seen = new Set<unknown>();
    dataset.value.forEach((item, index) => {
      if (seen.has(item[field])) {
        // The path names the field, so that a form shows the message next to its input.
        addIssue({
          message: `${label} ${String(item[field])} is defined twice`,
          path: [
            { type: 'array', origin: 'value', input: dataset.value, key: index, value: item },
            { type: 'object', origin: 'value', input: item as Record<string, unknown>, key: field, value: item[field] },
          ],
        });
      }
      seen.add(item[field]);
    });
  });
