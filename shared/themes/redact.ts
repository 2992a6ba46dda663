/**
 * What identifies a person in a comment, taken out before the comment leaves the table for anyone but the tenant's
 * admin reading the answer: Amazon Comprehend (whose PII detection has no Portuguese), the suggestions, the digest's
 * examples, chat messages and the analytics export all receive `redact(comment)`. Each match becomes a placeholder
 * naming its kind, so the sentence still reads ("me liguem no [phone]") and nothing of the value is kept.
 *
 * The comment is normalised first (`normalise`), so that a value spelled in full-width or Arabic-Indic digits, with
 * zero-width spaces, en dashes or a full-width ＠ is matched as its plain spelling; the text returned is the
 * normalised one.
 */

/** Between the digits of a card, a CPF or a phone: spaces (one or a few), dots, dashes, slashes, underscores, commas. */
const SEP = '[ ._,/-]';

const PATTERNS: [kind: RedactedKind, pattern: RegExp][] = [
  // Spaces around the @ are a common way of writing it out of a link's reach.
  ['email', /[\p{L}\p{N}._%+-]+ *@ *[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu],
  // 13 to 19 digits, in groups separated by up to three separators or run together, that pass the Luhn check (as every
  // card number does), not after a + (an international phone number) nor inside a longer run of digits; glued to a
  // word ("cartao4111...") counts.
  ['card', new RegExp(`(?<![\\d+])(?:\\d${SEP}{0,3}){12,18}\\d(?!\\d)`, 'g')],
  // 000.000.000-00, with or without the punctuation, or with any of the separators.
  ['cpf', new RegExp(`(?<![\\d+])\\d{3}${SEP}{0,2}\\d{3}${SEP}{0,2}\\d{3}${SEP}{0,2}\\d{2}(?!\\d)`, 'g')],
  // A run of digits, spaces, dots, dashes, slashes and brackets, maybe after a +: +55 (11) 91234-5678, 011 4567-8901,
  // +34 612 345 678, (415) 555-0100, 11/98765/4321. It is a phone when it holds 8 to 15 digits (E.164's most) and is
  // not a date, so "40 minutos", a price or "12/05/2024" stays.
  ['phone', /(?:\+|\()?\d[\d\s()._/-]{5,}\d/g],
];

export type RedactedKind = 'email' | 'card' | 'cpf' | 'phone';

/** The comment (normalised) with every e-mail, card number, CPF and phone number replaced by `[email]`, `[card]`, `[cpf]`, `[phone]`. */
export function redact(comment: string): string {
  return PATTERNS.reduce(
    (text, [kind, pattern]) => text.replace(pattern, (found) => (KEEP[kind]?.(found) ? found : `[${kind}]`)),
    normalise(comment),
  );
}

/**
 * The comment as the patterns read it: Unicode NFKC (full-width and mathematical digits and letters, ＠), every
 * script's decimal digits as ASCII digits, format characters (zero-width spaces and joiners, soft hyphens, bidirectional
 * marks) removed, every dash and minus sign as `-`, every space as ` `.
 */
export function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .replace(/\p{Nd}/gu, asciiDigit)
    .replace(/[\p{Pd}\u2212\u2796\uFE63\uFF0D]/gu, '-')
    .replace(/\p{Zs}/gu, ' ');
}

/**
 * A decimal digit of any script as its ASCII digit: Unicode keeps each script's digits as a run of ten from zero (some
 * runs follow each other, as the mathematical ones), so its value is its distance from the run's start, modulo 10.
 */
function asciiDigit(digit: string): string {
  const code = digit.codePointAt(0)!;
  if (code <= 0x39) return digit;
  let start = code;
  while (start > 0 && /\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
  return String((code - start) % 10);
}

/** One or two dates (12/05/2024, 1.5.24, 12/05 a 15/05), which the phone pattern would otherwise take. */
const DATES = /^\d{1,2}[./-]\d{1,2}(?:[./-](?:\d{4}|\d{2}))?(?:[\s-]+\d{1,2}[./-]\d{1,2}(?:[./-](?:\d{4}|\d{2}))?)*$/;

/** A match that is not what its pattern looks for after all. */
const KEEP: Partial<Record<RedactedKind, (found: string) => boolean>> = {
  card: (found) => !luhn(found.replace(/\D/g, '')),
  phone: (found) => {
    const digits = found.replace(/\D/g, '').length;
    return digits < 8 || digits > 15 || DATES.test(found.trim());
  },
};

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** A comment as an example shows it: redacted, on one line, cut to `characters` with an ellipsis. */
export function excerpt(comment: string, characters: number): string {
  const line = redact(comment).replace(/\s+/g, ' ').trim();
  return line.length > characters ? `${line.slice(0, characters - 1)}…` : line;
}
