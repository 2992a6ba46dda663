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

/** The answers of a tenant answered in [from, to) (ISO instants), page by page, by the answer indexes (never a Scan). */
export interface DayAnswers {
  between(tenantId: number, from: string, to: string): AsyncIterable<DayAnswer[]>;
}

/** The analytics bucket's objects, by key (shared/analytics/datasets.ts names them). */
export interface AnalyticsFiles {
  put(key: string, body: Uint8Array): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Deletes the object if there is one. */
  remove(key: string): Promise<void>;
}

export interface AnalyticsPorts {
  answers: DayAnswers;
  files: AnalyticsFiles;
  settings(tenantId: number): Promise<Pick<Settings, 'journeys' | 'timeZone' | 'analytics' | 'privacy' | 'regions'>>;
  /** The tenant's own key of its customers' pseudonyms. */
  pseudonymKey(tenantId: number): Promise<string>;
}
