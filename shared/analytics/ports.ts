import type { SourceName } from '../channels.js';
import type { Settings } from '../settings/settings.js';

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

/**
 * Where a day's read stands, between two invocations: the index partition (its place in the day's list of them) and
 * the key a page of it was read from (absent: its first page). Plain data, kept as JSON.
 */
export interface ReadCursor {
  partition: number;
  key?: Record<string, unknown>;
}
/** A page of a day's records, and the cursor that reads it again. */
export interface DayPage<T> {
  records: T[];
  at: ReadCursor;
}

/**
 * A tenant's records of a dataset whose instant is in [from, to) (ISO), page by page, by Queries of an index (never a
 * Scan); from `start` on, that page included, when given.
 */
export interface DayRecords<T> {
  between(tenantId: number, read: DayRead): AsyncIterable<DayPage<T>>;
}
/** A read of the records whose instant is in [from, to) (ISO), from the page `start` names on (absent: the first). */
export interface DayRead {
  from: string;
  to: string;
  start?: ReadCursor;
}
export type DayAnswers = DayRecords<DayAnswer>;

/** A part of an object written in parts, as its completion names it. */
export interface UploadedPart {
  n: number;
  etag: string;
}

/** A part or completion named an upload that is no more (completed already, or removed by the bucket's lifecycle). */
export class UploadGone extends Error {}

/** The analytics bucket's objects, by key (shared/analytics/datasets.ts names them). */
export interface AnalyticsFiles {
  /**
   * Begins an object written in parts (an S3 multipart upload): readers see the object as it was until it is
   * completed. One never completed is removed by the bucket's lifecycle. Answers the upload's id.
   */
  begin(key: string): Promise<string>;
  /**
   * Sends part `n`, each but the last at least 5 MiB (sent again under its number, it replaces the first). Its ETag.
   * Throws UploadGone (so does `complete`) when the upload is no more.
   */
  part(key: string, upload: { uploadId: string; n: number; bytes: Uint8Array }): Promise<string>;
  /** Shows the object made of these parts, whole, at once. */
  complete(key: string, uploadId: string, parts: UploadedPart[]): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Deletes the object if there is one. */
  remove(key: string): Promise<void>;
  /** A small object of text (a chain link's saved file: datasets.ts linkKeyOf), and reading it back. */
  keep(key: string, text: string): Promise<void>;
  read(key: string): Promise<string>;
}

/** A mark that a late change reached the records of a UTC day (shared/adapters/analytics-dirty.ts). */
export interface DirtyMark {
  utcDay: string;
  /** The mark's shard (shared/adapters/analytics-dirty.ts). */
  shard: number;
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
