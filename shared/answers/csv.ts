import type { ClassConfig } from '../settings/journeys.js';
import type { AnswerBody } from './schema.js';

/** The byte-order mark that makes spreadsheets read the file as UTF-8. */
export const BOM = '\uFEFF';

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. A cell a spreadsheet would read as a
 * formula (starting with =, +, -, @, tab or carriage return) is prefixed with an apostrophe and quoted (OWASP's
 * advice), so a customer's comment never runs in a manager's spreadsheet.
 */
export function csvCell(value: string | number | null, separator = ','): string {
  if (value === null) return '';
  let text = String(value);
  const formula = typeof value === 'string' && /^[=+\-@\t\r]/.test(text);
  if (formula) text = `'${text}`;
  return formula || text.includes(separator) || /["\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The answers of a page as CSV: the same rows as the JSON, one column per field and one per class of the tenant
 * (every page has the same columns, so pages can be joined).
 */
export function answersCsv(answers: AnswerBody[], classes: Pick<ClassConfig, 'id' | 'label'>[]): string {
  const header = [
    'id',
    'transaction_id',
    'answered_at',
    'journey',
    'store',
    'employee',
    'customer',
    'customer_name',
    'channel',
    'score',
    'bucket',
    'comment',
    ...classes.map((c) => `class ${c.id} ${c.label}`),
  ];
  const rows = answers.map((a) => [
    a.id,
    a.transaction_id,
    a.answered_at,
    a.journey.slug,
    a.store,
    a.employee,
    a.customer.id,
    a.customer.name,
    a.channel,
    a.score,
    a.bucket,
    a.comment,
    ...classes.map((c) => a.classes.find((item) => item.class_id === c.id)?.score ?? null),
  ]);
  return BOM + [header, ...rows].map((row) => row.map((cell) => csvCell(cell)).join(',')).join('\r\n') + '\r\n';
}
