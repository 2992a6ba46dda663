import { createHmac } from 'node:crypto';
import { instantAt } from '../cases/deadline.js';
import { addDays } from '../dates.js';
import { timeZoneOf } from '../locale.js';
import { logger } from '../logger.js';
import { regionsByStore } from '../regions.js';
import { bucketOf } from '../surveys/questions.js';
import { ANALYTICS_DEFAULTS } from '../tenants/scales.js';
import { DATASET_IDS, DATASETS, objectKeyOf, type DatasetId } from './datasets.js';
import { streamParquet, WRITE_LIMITS, type Row, type WriteLimits } from './parquet.js';
import type { AnalyticsPorts, DayAnswer, DayCase, DayRecords, DaySurvey } from './ports.js';

/**
 * The daily analytics export (issue 51, docs/analytics.md): a tenant's day (in its time zone) of each dataset as one
 * Parquet object. A day is written whole or not at all (one PutObject: S3 shows an object whole or not at all), and
 * written again when what it holds changed: an erasure, or on demand.
 */

/** Deletions past the retention reach this many days back from the cutoff: a run missed for up to this long is caught up. */
export const RETENTION_SWEEP_DAYS = 31;

/** The instants a tenant's day begins and ends (ISO, UTC): from its local midnight to the next. */
export function dayBounds(day: string, zone: string): { from: string; to: string } {
  const midnight = (d: string) => new Date(instantAt(Date.parse(`${d}T00:00:00Z`), 0, zone)).toISOString();
  return { from: midnight(day), to: midnight(addDays(day, 1)) };
}

/** The tenant's day an instant falls on. */
export const localDayOf = (instant: string | number, zone: string): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(instant));

/** The tenant's days a UTC day overlaps (a late change's mark names the UTC day): one in UTC, two in any other zone. */
export function localDaysOfUtcDay(utcDay: string, zone: string): string[] {
  const start = Date.parse(`${utcDay}T00:00:00Z`);
  return [...new Set([localDayOf(start, zone), localDayOf(start + 86_400_000 - 1, zone)])];
}

/**
 * The customer as the export names them: a keyed hash (HMAC-SHA-256) whose key is the tenant's own, so that ids do not
 * join across tenants and cannot be reversed without the key, which never leaves the service.
 */
export const pseudonymOf = (key: string, customerId: number): string =>
  createHmac('sha256', key).update(String(customerId)).digest('base64url').slice(0, 22);
/** A user (a case's owner, named by their e-mail address) under the same key, apart from every customer's. */
export const userPseudonymOf = (key: string, user: string): string =>
  createHmac('sha256', key).update(`user:${user}`).digest('base64url').slice(0, 22);

const timestampOf = (instant: string | null): Date | null => (instant ? new Date(instant) : null);

/** A survey's row (the transaction registered that day): no contact, only what became of it. */
export const surveyRow = (survey: DaySurvey, customerKey: (id: number) => string): Row => ({
  transaction_id: survey.transactionId,
  customer_key: survey.customerId === null ? null : customerKey(survey.customerId),
  journey_id: survey.journeyId,
  store_id: survey.storeId,
  employee_id: survey.employeeId,
  outcome: survey.outcome,
  reason: survey.reason,
  channel: survey.channel,
  attempts: survey.attempts,
  created_at: new Date(survey.createdAt),
  sent_at: timestampOf(survey.sentAt),
  answered_at: timestampOf(survey.answeredAt),
});

/** A case's row: its owner as a pseudonym (never the e-mail address), no name, no comment, no note. */
export const caseRow = (record: DayCase, pseudonyms: { customerKey: (id: number) => string; userKey: (user: string) => string }): Row => ({
  transaction_id: record.transactionId,
  customer_key: record.customerId === null ? null : pseudonyms.customerKey(record.customerId),
  journey_id: record.journeyId,
  store_id: record.storeId,
  employee_id: record.employeeId,
  score: record.score,
  owner_key: record.owner === null ? null : pseudonyms.userKey(record.owner),
  status: record.status,
  opened_at: new Date(record.openedAt),
  due_at: new Date(record.dueAt),
  overdue_at: timestampOf(record.overdueAt),
  first_contact_at: timestampOf(record.firstContactAt),
  closed_at: timestampOf(record.closedAt),
  root_cause: record.rootCause,
  recovery: record.recovery,
  recovery_score: record.recoveryScore,
});

/** The rows a dataset's records of [from, to) make, page by page. */
async function* rowsOf<T>(
  records: DayRecords<T>,
  tenantId: number,
  from: string,
  to: string,
  row: (record: T) => Row,
): AsyncGenerator<Row[]> {
  for await (const page of records.between(tenantId, from, to)) yield page.map(row);
}

/** An answer's row: no name, phone, e-mail or cpf; its comment only when the tenant opted in. */
export function answerRow(
  answer: DayAnswer,
  context: {
    indicatorOf: (journeyId: number) => Parameters<typeof bucketOf>[0] | undefined;
    regionOf: (storeId: number) => number | undefined;
    comments: boolean;
    customerKey: (id: number) => string;
  },
): Row {
  const indicator = context.indicatorOf(answer.journeyId);
  return {
    transaction_id: answer.transactionId,
    customer_key: answer.customerId === null ? null : context.customerKey(answer.customerId),
    journey_id: answer.journeyId,
    store_id: answer.storeId,
    employee_id: answer.employeeId,
    region_id: context.regionOf(answer.storeId) ?? null,
    source: answer.source,
    channel: answer.channel,
    score: answer.score,
    bucket: indicator ? bucketOf(indicator, answer.score) : null,
    class_scores: JSON.stringify(Object.fromEntries(answer.items.map((item) => [item.classId, item.score]))),
    comment: context.comments ? answer.comment : null,
    sentiment: answer.sentiment,
    themes: answer.themes,
    created_at: new Date(answer.createdAt),
    sent_at: answer.sentAt ? new Date(answer.sentAt) : null,
    answered_at: new Date(answer.answeredAt),
  };
}

/** `limits`: the row group and part sizes a day is written in (small in the tests, to force several). */
export function analyticsExport(ports: AnalyticsPorts, { limits = WRITE_LIMITS }: { limits?: WriteLimits } = {}) {
  /** Writes a tenant's day of every dataset; unless `force`, a day already written is left as it is (a resumed run). */
  async function exportDay(tenantId: number, day: string, force = false): Promise<'written' | 'skipped'> {
    const key = objectKeyOf('answers', tenantId, day);
    if (!force && (await ports.files.exists(key))) return 'skipped';
    const [settings, pseudonymKey] = await Promise.all([ports.settings(tenantId), ports.pseudonymKey(tenantId)]);
    const { from, to } = dayBounds(day, timeZoneOf(settings));
    const indicators = new Map(settings.journeys.map((journey) => [journey.id, journey.indicator]));
    const regions = regionsByStore(settings.regions ?? []);
    const customerKey = (id: number) => pseudonymOf(pseudonymKey, id);
    const context = {
      indicatorOf: (journeyId: number) => indicators.get(journeyId),
      regionOf: (storeId: number) => regions.get(storeId)?.[0],
      comments: (settings.analytics ?? ANALYTICS_DEFAULTS).comments,
      customerKey,
    };
    const pages: Record<DatasetId, AsyncIterable<Row[]>> = {
      surveys: rowsOf(ports.surveys, tenantId, from, to, (survey) => surveyRow(survey, customerKey)),
      cases: rowsOf(ports.cases, tenantId, from, to, (record) =>
        caseRow(record, { customerKey, userKey: (user) => userPseudonymOf(pseudonymKey, user) }),
      ),
      answers: rowsOf(ports.answers, tenantId, from, to, (answer) => answerRow(answer, context)),
    };
    // Each dataset's day streamed into one object, shown whole once written; the answers last: their object is what a
    // resumed run looks for (a day whose answers are written is whole).
    const written: Record<string, number> = {};
    for (const dataset of ['surveys', 'cases', 'answers'] as const) {
      const { rows, parts } = await ports.files.upload(objectKeyOf(dataset, tenantId, day), (part) =>
        streamParquet(DATASETS[dataset], pages[dataset], part, limits),
      );
      Object.assign(written, { [dataset]: rows, [`${dataset}Parts`]: parts });
    }
    logger.info('Analytics day exported', { tenantId, day, ...written });
    return 'written';
  }

  /** Writes the days from `from` to `to` (both included), in order; answers what it did with each. */
  async function exportDays(tenantId: number, from: string, to: string, force = false): Promise<{ day: string; outcome: string }[]> {
    const done: { day: string; outcome: string }[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) done.push({ day, outcome: await exportDay(tenantId, day, force) });
    return done;
  }

  /**
   * Writes again the days these instants fall on (a transaction's registration and answer), among those already
   * written (an erasure: the rows come back without the customer's key and comment, as the table now holds them). Days
   * never exported stay unwritten.
   */
  async function rewriteDaysOf(tenantId: number, instants: string[]): Promise<number> {
    const zone = timeZoneOf(await ports.settings(tenantId));
    const days = [...new Set(instants.map((at) => localDayOf(at, zone)))];
    let rewritten = 0;
    for (const day of days)
      if (await ports.files.exists(objectKeyOf('answers', tenantId, day))) {
        await exportDay(tenantId, day, true);
        rewritten++;
      }
    return rewritten;
  }

  /**
   * Writes again the days a late change marked (a case moved, an answer corrected), among those that have ended by
   * `through` (the tenant's last whole day), then clears their marks: conditionally, so that a change made while its
   * day was being written keeps its mark for the next run. A mark reaching a day not over yet waits (that day's own run
   * writes it). Answers the days written.
   */
  async function rewriteDirty(tenantId: number, through: string): Promise<string[]> {
    const marks = await ports.dirty.list(tenantId);
    if (!marks.length) return [];
    const zone = timeZoneOf(await ports.settings(tenantId));
    const ready = marks.filter((mark) => localDaysOfUtcDay(mark.utcDay, zone).every((day) => day <= through));
    const days = [...new Set(ready.flatMap((mark) => localDaysOfUtcDay(mark.utcDay, zone)))].sort();
    for (const day of days) await exportDay(tenantId, day, true);
    for (const mark of ready) await ports.dirty.clear(tenantId, mark);
    return days;
  }

  /**
   * Deletes the days past the tenant's retention, as of `today` (the tenant's): the RETENTION_SWEEP_DAYS days before
   * the cutoff, of every dataset (a deleted or absent object costs one request). None without a retention.
   */
  async function expireDays(tenantId: number, today: string): Promise<string[]> {
    const retentionDays = (await ports.settings(tenantId)).privacy?.retentionDays;
    if (!retentionDays) return [];
    const cutoff = addDays(today, -retentionDays);
    const days = Array.from({ length: RETENTION_SWEEP_DAYS }, (_, i) => addDays(cutoff, -1 - i));
    await Promise.all(days.flatMap((day) => DATASET_IDS.map((dataset) => ports.files.remove(objectKeyOf(dataset, tenantId, day)))));
    return days;
  }

  return { exportDay, exportDays, rewriteDaysOf, rewriteDirty, expireDays };
}

export type AnalyticsExport = ReturnType<typeof analyticsExport>;
