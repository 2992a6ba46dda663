/** A word with its first letter in upper case, the rest as it is ("transactionConsumer" -> "TransactionConsumer"). */
export const capitalise = (word: string): string => (word ? word[0]!.toUpperCase() + word.slice(1) : word);

/**
 * The one rule for free text a person typed (names, comments, labels, a respondent's fields): what reaches e-mail
 * subjects, SMS and WhatsApp parameters, pages and the table. Refused: C0 and C1 control characters (but new lines,
 * where a field allows several lines), Unicode line and paragraph separators, bidirectional controls (embeddings,
 * overrides, isolates and the marks, which can make a text read otherwise than it is) and unpaired surrogates (not
 * text; DynamoDB may refuse them). Answers what is wrong, or undefined.
 */
export function textProblem(value: string, { lines = false }: { lines?: boolean } = {}): string | undefined {
  if (!value.isWellFormed()) return 'must not contain unpaired surrogates';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code === 0x0a || code === 0x0d) {
      if (!lines) return 'must be a single line';
    } else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return 'must not contain control characters';
    else if (code === 0x2028 || code === 0x2029) return 'must not contain Unicode line or paragraph separators';
    else if (BIDI_CONTROLS.has(code)) return 'must not contain bidirectional text controls';
  }
  return undefined;
}

/** Arabic letter mark, left-to-right and right-to-left marks, embeddings and overrides, isolates. */
const BIDI_CONTROLS = new Set([0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);

/** Case- and accent-insensitive form of a name, for prefix search. */
export function normaliseName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The first `count` of these texts that say different things, in their order: two that differ only in case, accents,
 * punctuation, symbols or spacing ("Demorou muito" and "demorou muito!") are one, the first kept. For examples quoted
 * side by side, which should never read as the same comment twice.
 */
export function distinctTexts(texts: readonly string[], count: number): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const text of texts) {
    if (kept.length === count) break;
    const said = normaliseName(text.normalize('NFKC').replace(/[\p{P}\p{S}]+/gu, ' '));
    if (seen.has(said)) continue;
    seen.add(said);
    kept.push(text);
  }
  return kept;
}

/**
 * An Intl formatter made at its first use, not at the module's load: making one loads ICU's data for its locale, which
 * made the workspace's results page's cold import 25% slower (three number formats, measured in the cold-start benchmark).
 */
export function lazyFormat<T>(make: () => { format(value: T): string }): { format(value: T): string } {
  let made: { format(value: T): string } | undefined;
  return { format: (value) => (made ??= make()).format(value) };
}

/**
 * The longest start of `text` that takes at most `maxBytes` bytes in UTF-8, cut between code points: never inside a
 * UTF-8 sequence or a surrogate pair.
 */
export function cutToUtf8Bytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes > maxBytes) return text.slice(0, end);
    end += char.length;
  }
  return text;
}
