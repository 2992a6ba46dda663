import type { SourceName } from '../channels.js';
import type { Aspect, Sentiment } from '../themes/ports.js';

/** An answer as the answer indexes keep it: what a listing shows, before the tenant's labels are put on it. */
export interface StoredAnswer {
  id: number;
  transactionId: string | null;
  answeredAt: string;
  journeyId: number;
  storeId: number;
  employeeId: number;
  customerId: number;
  /** Null once erased or expired. */
  customerName: string | null;
  source: SourceName;
  score: number;
  comment: string | null;
  items: { classId: number; score: number }[];
  /** What the comment's analysis found: null before it (or without a comment, or once the comment is gone). */
  sentiment: Sentiment | null;
  themes: string[] | null;
  /** Each theme's polarity (null as `themes`; an answer analysed before mentions had one: [] until reanalysed). */
  aspects: Aspect[] | null;
}

/** Which answers a page lists, newest first: the storage port is told the keys and the filters, never the tenant's rules. */
export interface AnswerSelection {
  tenantId: number;
  /** Only these stores' answers; undefined: every store. */
  stores?: number[];
  /** The first and last day (UTC, YYYY-MM-DD), both included. */
  from: string;
  to: string;
  /** Only these journeys' answers, each with a score in its range when one is given; undefined: every journey. */
  journeys?: { id: number; scores?: { min: number; max: number } }[];
  employee?: number;
  /** Only answers that scored this class (one of these scores: its scale). */
  rated?: { classId: number; scores: number[] };
  hasComment?: boolean;
  /** Only answers from this source (a QR code's flood is seen, and left out, so). */
  source?: SourceName;
  /** Only answers whose comment's analysis found this theme (a slug), or this sentiment. */
  theme?: string;
  sentiment?: Sentiment;
  /** With `theme`: only answers whose comment says this of that theme (`aspect=delivery:negative`). */
  aspect?: Sentiment;
  limit: number;
  cursor?: string;
  /** What the cursor is bound to: a cursor of another query (or tenant, or scope) is refused. */
  query: string;
}

export interface AnswerStore {
  /** One page, newest first; a filtered page may hold fewer than `limit` and still have a next cursor. */
  list(selection: AnswerSelection): Promise<{ answers: StoredAnswer[]; nextCursor: string | null }>;
}
