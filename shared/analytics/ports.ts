import type { SourceName } from '../channels.js';
import type { Settings } from '../tenants/config-schema.js';

/** An answer as the export reads it from the table: what its row is made of, before it is made pseudonymous. */
export interface DayAnswer {
  transactionId: number;
  /** Null once the customer was erased, or the transaction's personal copies expired (its retention). */
  customerId: number | null;
  journeyId: number;
  storeId: number;
  employeeId: number;
  source: SourceName;
  channel: string | null;
  score: number;
  items: { classId: number; score: number }[];
  /** Null once erased or expired, as the table keeps it. */
  comment: string | null;
  sentiment: string | null;
  themes: string[] | null;
  createdAt: string;
  sentAt: string | null;
  answeredAt: string;
}

/** A transaction's survey as the export reads it (the surveys dataset), on the day it was registered. */
export interface DaySurvey {
  transactionId: number;
  /** Null once the customer was erased, or the transaction's personal copies expired. */
  customerId: number | null;
  journeyId: number;
  storeId: number;
  employeeId: number;
  outcome: string;
  reason: string | null;
  channel: string | null;
  /** How many attempts were sent. */
  attempts: number;
  createdAt: string;
  sentAt: string | null;
  answeredAt: string | null;
}

/** A case as the export reads it (the cases dataset), on the day it opened. */
export interface DayCase {
  transactionId: number;
  /** Null once the customer was erased (the case's `erased`). */
  customerId: number | null;
  journeyId: number;
  storeId: number;
  employeeId: number;
  score: number;
  /** The owner's user name (an e-mail address: the row holds its pseudonym only); null: unassigned. */
  owner: string | null;
  status: string;
  openedAt: string;
  dueAt: string;
  overdueAt: string | null;
  firstContactAt: string | null;
  closedAt: string | null;
  rootCause: string | null;
  recovery: string | null;
  recoveryScore: number | null;
}

/** A tenant's records of a dataset whose instant is in [from, to) (ISO), page by page, by Queries of an index (never a Scan). */
export interface DayRecords<T> {
  between(tenantId: number, from: string, to: string): AsyncIterable<T[]>;
}
export type DayAnswers = DayRecords<DayAnswer>;

/** The analytics bucket's objects, by key (shared/analytics/datasets.ts names them). */
export interface AnalyticsFiles {
  /**
   * Writes one object from the parts `write` hands on, in order (each but the last at least 5 MB), and shows it only
   * once `write` has finished: until then readers see the object as it was (an S3 multipart upload, completed at the
   * end; one that fails is never completed, and the bucket's lifecycle removes its parts).
   */
  upload<T>(key: string, write: (part: (bytes: Uint8Array) => Promise<void>) => Promise<T>): Promise<T>;
  exists(key: string): Promise<boolean>;
  /** Deletes the object if there is one. */
  remove(key: string): Promise<void>;
}

/** A mark that a late change reached the records of a UTC day (shared/adapters/analytics-dirty.ts). */
export interface DirtyMark {
  utcDay: string;
  /** The mark's token as read: cleared only while it is still this (a change since marks the day again). */
  token: string;
}

/** The tenant's days marked for writing again (one small partition, one Query). */
export interface DirtyDays {
  list(tenantId: number): Promise<DirtyMark[]>;
  /** Removes the mark unless a change marked it again since it was read. */
  clear(tenantId: number, mark: DirtyMark): Promise<void>;
}

export interface AnalyticsPorts {
  answers: DayAnswers;
  surveys: DayRecords<DaySurvey>;
  cases: DayRecords<DayCase>;
  dirty: DirtyDays;
  files: AnalyticsFiles;
  settings(tenantId: number): Promise<Pick<Settings, 'journeys' | 'timeZone' | 'analytics' | 'privacy' | 'regions'>>;
  /** The tenant's own key of its customers' pseudonyms. */
  pseudonymKey(tenantId: number): Promise<string>;
}
