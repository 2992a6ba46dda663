/**
 * The analytics export's datasets (issue 51): each a table of Athena's Glue database and of DuckDB locally, one
 * Parquet file a tenant and day under `<dataset>/tenant=<id>/date=<YYYY-MM-DD>/`. A column is declared once here: the
 * Parquet writer (parquet.ts), the Glue tables (infra/constructs/analytics.ts) and docs/analytics.md read this list.
 */

/** A column's type, as Glue (Hive DDL) names it; parquet.ts says how Parquet stores it. */
export const COLUMN_TYPES = {
  int: { glue: 'int' },
  /** Transaction ids: up to 2^53 (transaction-id.ts), beyond an int. */
  bigint: { glue: 'bigint' },
  string: { glue: 'string' },
  timestamp: { glue: 'timestamp' },
  /** A list of strings (themes): UNNEST reads it, in Athena as in DuckDB. */
  strings: { glue: 'array<string>' },
} as const;
export type ColumnType = keyof typeof COLUMN_TYPES;

export interface Column {
  name: string;
  type: ColumnType;
  /** What it holds, for the Glue table's comment and the docs. */
  about: string;
}

const column = (name: string, type: ColumnType, about: string): Column => ({ name, type, about });

/** One row per answer, on the tenant's day it was answered. */
const answers: Column[] = [
  column('transaction_id', 'bigint', "the transaction's internal id in the service"),
  column('customer_key', 'string', 'the customer, pseudonymous: a keyed hash per tenant; null once erased or past retention'),
  column('journey_id', 'int', 'the journey'),
  column('store_id', 'int', 'the store'),
  column('employee_id', 'int', 'the employee'),
  column('region_id', 'int', "the store's region (its own, not the parent) when the day was written; null when in none"),
  column('source', 'string', 'where the answer came from (api, survey page, chatbot, qr, kiosk...)'),
  column('channel', 'string', 'the channel of the survey attempt (email, sms, whatsapp...); null when none was sent'),
  column('score', 'int', 'the main score'),
  column('bucket', 'string', "the score's bucket: detractor, passive, promoter (NPS) or low, mid, high"),
  column('class_scores', 'string', 'the classes rated, as JSON: {"<class id>": score}'),
  column('comment', 'string', 'the comment, only when the tenant opts in (analytics.comments); null once erased or past retention'),
  column('sentiment', 'string', "the comment's sentiment, when analysed"),
  column('themes', 'strings', "the tenant's themes the comment matched, when analysed"),
  column('created_at', 'timestamp', 'when the transaction was registered (UTC)'),
  column('sent_at', 'timestamp', "when the survey's first attempt was sent (UTC); null when none was"),
  column('answered_at', 'timestamp', 'when it was answered (UTC)'),
];

/** One row per transaction registered on the tenant's day: its survey, whatever became of it. */
const surveys: Column[] = [
  column('transaction_id', 'bigint', "the transaction's internal id in the service"),
  column('customer_key', 'string', 'the customer, pseudonymous as in answers; null once erased or past retention'),
  column('journey_id', 'int', 'the journey'),
  column('store_id', 'int', 'the store'),
  column('employee_id', 'int', 'the employee'),
  column('outcome', 'string', "the survey's status: scheduled, sent, answered, failed, not_sent or expired"),
  column('reason', 'string', 'why it was not sent or did not arrive (opted_out, no_contact, undeliverable...); null otherwise'),
  column('channel', 'string', "the channel of the survey's current attempt; null when none was planned"),
  column('attempts', 'int', 'how many of its attempts were sent'),
  column('created_at', 'timestamp', 'when the transaction was registered (UTC)'),
  column('sent_at', 'timestamp', 'when its first attempt was sent (UTC); null when none was'),
  column('answered_at', 'timestamp', 'when it was answered (UTC); null when it was not'),
];

/** One row per case opened on the tenant's day (issue 33), as it stands when the day is written (again). */
const cases: Column[] = [
  column('transaction_id', 'bigint', "the answer's transaction (a case's id is its transaction's)"),
  column('customer_key', 'string', 'the customer, pseudonymous as in answers; null once erased or past retention'),
  column('journey_id', 'int', 'the journey'),
  column('store_id', 'int', 'the store'),
  column('employee_id', 'int', 'the employee'),
  column('score', 'int', 'the score that opened it'),
  column('owner_key', 'string', 'the user who owns it, pseudonymous (a keyed hash of the user, never an e-mail); null: unassigned'),
  column('status', 'string', 'open, in_progress, resolved or closed_unresolved'),
  column('opened_at', 'timestamp', 'when it opened (UTC)'),
  column('due_at', 'timestamp', 'its deadline (UTC)'),
  column('overdue_at', 'timestamp', 'when it went past its deadline (UTC); null when it did not'),
  column('first_contact_at', 'timestamp', 'when it moved to in_progress: the first contact (UTC)'),
  column('closed_at', 'timestamp', 'when it moved to resolved or closed_unresolved (UTC)'),
  column('root_cause', 'string', "the root cause it was resolved with (the tenant's list)"),
  column('recovery', 'string', "the recovery survey's outcome: pending, recovered or not_recovered; null when none"),
  column('recovery_score', 'int', "the recovery survey's score, when answered"),
];

export const DATASETS = { answers, surveys, cases } as const;
export type DatasetId = keyof typeof DATASETS;
export const DATASET_IDS = Object.keys(DATASETS) as DatasetId[];

/**
 * The partition columns, as Athena's projection and DuckDB's hive partitioning both read them from the key. Both are
 * strings to Glue: `tenant` is projected as injected (every query names its tenant, `tenant = '7'`), `date` as a
 * date range of days (`yyyy-MM-dd`).
 */
export const PARTITIONS = [
  { name: 'tenant', type: 'string', about: 'the tenant (its prefix: one grant per tenant reaches its days only)' },
  { name: 'date', type: 'string', about: "the tenant's day (its time zone), yyyy-MM-dd" },
] as const;

/** A dataset's columns as its Glue table declares them: the same list the Parquet writer writes (parquet.ts). */
export const glueColumnsOf = (dataset: DatasetId): { name: string; type: string; comment: string }[] =>
  DATASETS[dataset].map((c) => ({ name: c.name, type: COLUMN_TYPES[c.type].glue, comment: c.about }));

/** Where a tenant's day of a dataset is: one object, written whole (a PutObject is visible whole or not at all). */
export const objectKeyOf = (dataset: DatasetId, tenantId: number, day: string): string =>
  `${datasetPrefix(dataset)}${tenantPrefix(tenantId)}date=${day}/part-0.parquet`;
export const datasetPrefix = (dataset: DatasetId): string => `${dataset}/`;
/**
 * The file a chain of invocations writing a day saved at the end of a link (docs/analytics.md): outside every dataset's
 * prefix, so no table reads it; the bucket's lifecycle removes what a chain that died left (LINKS_PREFIX).
 */
export const LINKS_PREFIX = '_links/';
export const linkKeyOf = (tenantId: number, chainId: string, seq: number): string =>
  `${LINKS_PREFIX}${tenantPrefix(tenantId)}${chainId}/${seq}.json`;
/** A tenant's own prefix under each dataset: what an operator grants one tenant's analysts (docs/analytics.md). */
export const tenantPrefix = (tenantId: number): string => `tenant=${tenantId}/`;
