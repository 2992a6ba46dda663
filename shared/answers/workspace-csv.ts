import { workspaceTranslator } from '../i18n/messages.js';
import type { Locale } from '../locale.js';
import type { ClassConfig, JourneyConfig } from '../settings/journeys.js';
import { BOM, csvCell } from './csv.js';
import type { AnswerBody } from './schema.js';

/** What a person's spreadsheet expects: `;` where the comma is the decimal mark (pt-BR, es), `,` in English. */
export const separatorOf = (locale: Locale): string => (locale === 'en' ? ',' : ';');

export interface WorkspaceCsvOptions {
  locale: Locale;
  /** The tenant's time zone (IANA): every time is written in it, and the header names it. */
  timeZone: string;
  journeys: Pick<JourneyConfig, 'id' | 'name' | 'slug'>[];
  classes: Pick<ClassConfig, 'id' | 'label'>[];
}

/** The names a page of rows shows beside the ids. */
export interface RowNames {
  stores: Map<number, string>;
  employees: Map<number, string>;
}

/**
 * The workspace export's CSV, for people (the API's `Accept: text/csv` stays `answersCsv`): headers in the tenant's
 * language, store and employee names beside their ids, buckets in words, times in the tenant's zone written the
 * locale's way, the locale's separator and decimal mark, UTF-8 with a BOM. Written a page of rows at a time, so that
 * a file of any size streams.
 */
export function workspaceCsv({ locale, timeZone, journeys, classes }: WorkspaceCsvOptions) {
  const t = workspaceTranslator(locale);
  const separator = separatorOf(locale);
  const number = new Intl.NumberFormat(locale, { useGrouping: false, maximumFractionDigits: 2 });
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium', timeZone });
  // A formatted number holds no separator (no grouping; the decimal mark is never the locale's separator).
  const line = (cells: (string | number | null)[]) =>
    cells.map((cell) => (typeof cell === 'number' ? number.format(cell) : csvCell(cell, separator))).join(separator) + '\r\n';

  const header = (): string =>
    BOM +
    line([
      t('answers.export.column.answeredAt', { zone: timeZone }),
      t('answers.export.column.journey'),
      t('answers.export.column.storeId'),
      t('answers.export.column.store'),
      t('answers.export.column.employeeId'),
      t('answers.export.column.employee'),
      t('answers.export.column.customerId'),
      t('answers.export.column.customer'),
      t('answers.export.column.channel'),
      t('answers.export.column.score'),
      t('answers.export.column.bucket'),
      t('answers.export.column.comment'),
      ...classes.map((c) => t('answers.export.column.item', { label: c.label })),
      t('answers.export.column.answerId'),
      t('answers.export.column.transactionId'),
    ]);

  const rows = (answers: AnswerBody[], names: RowNames): string =>
    answers
      .map((a) =>
        line([
          when.format(new Date(a.answered_at)),
          journeys.find((j) => j.id === a.journey.id)?.name ?? a.journey.slug,
          a.store,
          names.stores.get(a.store) ?? null,
          a.employee,
          names.employees.get(a.employee) ?? null,
          a.customer.id,
          a.customer.name,
          a.channel,
          a.score,
          a.bucket ? t(`answers.bucket.${a.bucket}`) : t('answers.outOfScale'),
          a.comment,
          ...classes.map((c) => a.classes.find((item) => item.class_id === c.id)?.score ?? null),
          a.id,
          a.transaction_id,
        ]),
      )
      .join('');

  return { header, rows };
}
