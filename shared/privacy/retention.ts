import { logger } from '../logger.js';
import { count } from '../metrics.js';

/**
 * Retention: a tenant may keep what its transactions copied of their customers (name, survey contacts) and what
 * their answers say (comment, chatbot respondent) for a number of days (`privacy.retentionDays` in its file),
 * counted from the transaction and again from each answer. Readers stop showing them the moment they expire; this
 * sweep then removes them from the table, reading only the day partitions of entries that expired, so its cost is
 * per expired transaction, never per transaction kept. Scores, classes, attempts and counts stay.
 *
 * Why not the table's TTL alone: TTL deletes whole items, and the transaction must outlive its personal copies (its
 * score counts in the results, its attempts are its history). Moving the copies to an item of their own would make
 * every read of a transaction, and every list of evaluations, read two items.
 */

/** A day as the sweep names it: `YYYY-MM-DD`, UTC. */
export const dayOf = (date: Date): string => date.toISOString().slice(0, 10);
const nextDay = (day: string): string => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000));

/** With no checkpoint yet (a new deployment), the sweep starts this many days back. */
export const FIRST_LOOKBACK_DAYS = 7;
/** A run stops taking new pages when less than this is left of its time; the next run goes on from there. */
export const STOP_MARGIN_MS = 20_000;

/** A stored transaction, by its table key. */
export type TransactionKey = { pk: string; sk: string };

/** The table side: transactions whose copies expire on a day, their removal, and the last day swept clean. */
export interface ExpiryStore {
  /** Pages of the transactions of `day` whose personal copies had expired by `now` (an ISO instant). */
  expired(day: string, now: string): AsyncIterable<TransactionKey[]>;
  /** Removes the personal copies of these transactions that are still expired by `now`; answers how many it removed. */
  strip(transactions: TransactionKey[], now: string): Promise<number>;
  checkpoint(): Promise<string | undefined>;
  saveCheckpoint(day: string): Promise<void>;
}

export interface SweepOutcome {
  /** Days read, the current one included. */
  days: number;
  /** Transactions whose personal copies were removed. */
  stripped: number;
  /** False when the run stopped for time: the next run goes on. */
  finished: boolean;
}

/**
 * Removes the personal copies that expired by `now`: the days after the checkpoint up to today, a page at a time.
 * A past day swept to its end moves the checkpoint (entries are only ever added to days ahead: the retention is a
 * day at least); today is read up to now and read again by the next run.
 */
export async function sweepExpired(store: ExpiryStore, now: Date, timeLeft: () => number): Promise<SweepOutcome> {
  const today = dayOf(now);
  const instant = now.toISOString();
  const checkpoint = await store.checkpoint();
  let day = checkpoint ? nextDay(checkpoint) : dayOf(new Date(now.getTime() - FIRST_LOOKBACK_DAYS * 86_400_000));
  const outcome: SweepOutcome = { days: 0, stripped: 0, finished: false };
  for (; day <= today; day = nextDay(day)) {
    if (timeLeft() < STOP_MARGIN_MS) return report(outcome);
    outcome.days++;
    for await (const page of store.expired(day, instant)) {
      if (timeLeft() < STOP_MARGIN_MS) return report(outcome);
      outcome.stripped += await store.strip(page, instant);
    }
    if (day < today) await store.saveCheckpoint(day);
  }
  outcome.finished = true;
  return report(outcome);
}

/** A run that removed something or stopped for time says so; a quiet run (most of them) writes nothing. */
function report(outcome: SweepOutcome): SweepOutcome {
  if (outcome.stripped) count('PersonalCopiesExpired', undefined, outcome.stripped);
  if (outcome.stripped || !outcome.finished) logger.info('personal copies expired', { ...outcome });
  return outcome;
}
