import type { Locale } from '../locale.js';
import type { SurveyBrand } from '../surveys/compose.js';
import type { Settings } from '../settings/settings.js';

/** One QR code's answers from one address in one window: what the rate limit counts. */
export interface AnswerWindow {
  tenantId: number;
  tokenHash: string;
  addressHash: string;
  /** The window's number (its start over its length). */
  window: number;
  /** When it ends (epoch ms): its item's TTL. */
  endsAt: number;
}

export interface QrStore {
  /** Raises the tenant's QR generation and answers the new one: every older code answers 410 from the next request. */
  rotateGeneration(tenantId: number): Promise<number>;
  /** Counts one answer unless the window holds `limit` already (then false): one atomic write. */
  countAnswer(window: AnswerWindow, limit: number): Promise<boolean>;
  /** What each window counted so far (0 for one that counted nothing), in the order asked: one BatchGetItem. */
  counted(windows: Omit<AnswerWindow, 'endsAt'>[]): Promise<number[]>;
}

/** A walk-in customer's answer, to become a transaction of source `qr` or `kiosk`, rated, on the code's store. */
export interface EntryAnswer {
  source: 'qr' | 'kiosk';
  storeId: number;
  /** Absent: the store's default employee (1). */
  employeeId?: number | undefined;
  journeyId: number;
  score: number;
  classes: { classId: number; score: number }[];
  comment: string | null;
  /** What the customer left to be contacted back (validated); none: anonymous, a case says "no contact". */
  contact: { email?: string; phone?: string };
  /** The page's language: the customer's, when they leave a contact. */
  locale: Locale;
}

/** An entry's store and employee as they are now: undefined where no such one exists. */
export interface EntryPlace {
  store: { status: 'active' | 'inactive' } | undefined;
  /** Undefined too when the entry names no employee (the store's default). */
  employee: { status: 'active' | 'inactive'; stores: readonly number[] } | undefined;
}

export interface QrPorts {
  settings(tenantId: number): Promise<Settings>;
  brand(tenantId: number, storeId: number): Promise<SurveyBrand>;
  /** The store and the employee (when `employeeId` is given) of an entry, read together. */
  place(tenantId: number, storeId: number, employeeId: number | undefined): Promise<EntryPlace>;
  limits: Pick<QrStore, 'countAnswer'>;
  /**
   * The one answer path for an answer taken with its transaction: counters, event, case, analysis. Throws a
   * ValidationError when the transaction rules refuse it (a store deactivated a moment ago): nothing is recorded.
   */
  record(tenantId: number, answer: EntryAnswer): Promise<void>;
}
