import type { SourceName } from '../channels.js';

/**
 * Results by where their answers came from (issue 50): `qr` (a store's printed code), `kiosk` (a store's tablet), or
 * `transaction` (every other answer: to a survey sent after a sale, or a rating registered with it). QR and kiosk
 * answers are the few, so only they are counted twice: each count such an answer adds to a result counter (`tally.ts`)
 * it also adds to a cell of its source in the same counter item (`qr:n`, `qr:sum`, `kiosk:c3p`...), in the same
 * conditional write, so a redelivery counts neither twice and a correction moves both. The transaction source's counts
 * are the whole minus the two at read time: no cell of their own, no read of their own.
 */
export const RESULT_SOURCES = ['transaction', 'qr', 'kiosk'] as const;
export type ResultSource = (typeof RESULT_SOURCES)[number];

/** The sources with cells of their own: an answer of any other source counts as `transaction`. */
const CELLED = ['qr', 'kiosk'] as const satisfies ResultSource[];
type Celled = (typeof CELLED)[number];
const celled = (source: string | undefined): source is Celled => CELLED.includes(source as Celled);

/** The counts an answer adds (`tally.ts`): the main question's `n`, `sum`, `p`, `d`, `r`, and each class's (`c<id>n`...). */
const ANSWER_COUNT = /^(c\d+)?(n|sum|p|d|r)$/;
/** What sending a survey adds (`sent`, each class asked `c<id>a`): a QR code or a kiosk sends no survey. */
const SENT_COUNT = /^(sent|c\d+a)$/;

const cell = (source: Celled, name: string) => `${source}:${name}`;
const isCell = (name: string) => CELLED.some((source) => name.startsWith(`${source}:`));

/** An answer's counts with, for a QR or kiosk answer, the same counts again in its source's cells. */
export function withSourceCells(counts: Record<string, number>, source: SourceName | undefined): Record<string, number> {
  if (!celled(source)) return counts;
  return { ...counts, ...Object.fromEntries(Object.entries(counts).map(([name, value]) => [cell(source, name), value])) };
}

/**
 * A counter's (or a group's summed) counts as one source sees them: its answer counts are a QR's or a kiosk's cells, or
 * for `transaction` the whole less both; a QR or kiosk view sends nothing; the cases' counts are every source's (cases
 * keep no source). The cells of the other sources are left out, so `answersBySource` of the result names this one only.
 */
export function countsOfSource(counts: Record<string, number>, source: ResultSource): Record<string, number> {
  const seen: Record<string, number> = {};
  for (const [name, value] of Object.entries(counts)) {
    if (isCell(name)) {
      if (source !== 'transaction' && name.startsWith(`${source}:`)) seen[name] = value;
    } else if (ANSWER_COUNT.test(name))
      seen[name] =
        source === 'transaction'
          ? value - CELLED.reduce((sum, s) => sum + (counts[cell(s, name)] ?? 0), 0)
          : (counts[cell(source, name)] ?? 0);
    else seen[name] = source !== 'transaction' && SENT_COUNT.test(name) ? 0 : value;
  }
  return seen;
}

/** A group's answers by source (`prefix`: a class's, `c<id>`): how many came from each, so a flood shows. */
export function answersBySource(counts: Record<string, number>, prefix = ''): Record<ResultSource, number> {
  const [qr, kiosk] = CELLED.map((source) => counts[cell(source, `${prefix}n`)] ?? 0) as [number, number];
  return { transaction: (counts[`${prefix}n`] ?? 0) - qr - kiosk, qr, kiosk };
}
