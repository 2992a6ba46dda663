/**
 * What identifies a person in a comment, taken out before the comment leaves the service (Amazon Comprehend's PII
 * detection has no Portuguese, so the service does it itself). Each match becomes a placeholder naming its kind, so
 * the sentence still reads ("me liguem no [phone]") and nothing of the value is kept. Order matters: a card number
 * or a CPF is a run of digits a phone pattern would also take.
 */
const PATTERNS: [kind: string, pattern: RegExp][] = [
  ['email', /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu],
  // 13 to 19 digits, in groups separated by spaces or dashes or run together, that pass the Luhn check (as every
  // card number does), not after a + (an international phone number).
  ['card', /(?<!\+)\b(?:\d[ -]?){12,18}\d\b/g],
  // 000.000.000-00, with or without the punctuation.
  ['cpf', /\b\d{3}\.?\d{3}\.?\d{3}-?\d{2}\b/g],
  // A run of digits, spaces, dots, dashes and brackets, maybe after a +: +55 (11) 91234-5678, 011 4567-8901,
  // +34 612 345 678, (415) 555-0100. It is a phone when it holds 8 to 15 digits (E.164's most), so "40 minutos" or a
  // price stays.
  ['phone', /(?:\+|\()?\d[\d\s().-]{5,}\d/g],
];

export type RedactedKind = 'email' | 'card' | 'cpf' | 'phone';

/** The comment with every e-mail, card number, CPF and phone number replaced by `[email]`, `[card]`, `[cpf]`, `[phone]`. */
export function redact(comment: string): string {
  return PATTERNS.reduce((text, [kind, pattern]) => text.replace(pattern, (found) => (KEEP[kind]?.(found) ? found : `[${kind}]`)), comment);
}

/** A match that is not what its pattern looks for after all. */
const KEEP: Record<string, (found: string) => boolean> = {
  card: (found) => !luhn(found.replace(/\D/g, '')),
  phone: (found) => {
    const digits = found.replace(/\D/g, '').length;
    return digits < 8 || digits > 15;
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
