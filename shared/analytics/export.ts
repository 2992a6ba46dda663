import { createHmac } from 'node:crypto';
import { instantAt } from '../cases/deadline.js';
import { addDays } from '../dates.js';
import { timeZoneOf } from '../locale.js';
import { logger } from '../logger.js';
import { regionsByStore } from '../regions.js';
import { bucketOf } from '../surveys/questions.js';
import { redact } from '../themes/redact.js';
import { ANALYTICS_DEFAULTS } from './config.js';
import { DATASET_IDS, DATASETS, objectKeyOf, type DatasetId } from './datasets.js';
import { localDayOf } from '../local-day.js';
import { parquetFile, WRITE_LIMITS, type ParquetState, type Row, type WriteLimits } from './parquet.js';
import {
  UploadGone,
  type AnalyticsPorts,
  type DayAnswer,
  type DayCase,
  type DayRecords,
  type DaySurvey,
  type DirtyMark,
  type ReadCursor,
  type UploadedPart,
} from './ports.js';

/**
 * The daily analytics export (issue 51, docs/analytics.md): a tenant's day (in its time zone) of each dataset as one
 * Parquet object. A day is written whole or not at all (a multipart upload: S3 shows the object when it is completed),
 * possibly by several invocations (chain.ts), and written again when what it holds changed: an erasure, a late change,
 * or on demand.
 */

/** Deletions past the retention reach this many days back from the cutoff: a run missed for up to this long is caught up. */
export const RETENTION_SWEEP_DAYS = 31;

/** The instants a tenant's day begins and ends (ISO, UTC): from its local midnight to the next. */
export function dayBounds(day: string, zone: string): { from: string; to: string } {
  const midnight = (d: string) => new Date(instantAt(Date.parse(`${d}T00:00:00Z`), 0, zone)).toISOString();
  return { from: midnight(day), to: midnight(addDays(day, 1)) };
}

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

/** An answer's row: no name, phone, e-mail or cpf; its comment only when the tenant opted in, redacted (shared/themes/redact.ts). */
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
    comment: context.comments && answer.comment !== null ? redact(answer.comment) : null,
    sentiment: answer.sentiment,
    themes: answer.themes,
    created_at: new Date(answer.createdAt),
    sent_at: answer.sentAt ? new Date(answer.sentAt) : null,
    answered_at: new Date(answer.answeredAt),
  };
}

/** The datasets in the order a day writes them: the answers last, whose object is what a resumed run looks for. */
export const WRITE_ORDER = ['surveys', 'cases', 'answers'] as const satisfies readonly DatasetId[];

/** Days to write, one after the other: a chain's work (chain.ts), or the admin command's in one go. */
export interface DaysJob {
  tenantId: number;
  days: string[];
}

/**
 * Where the writing of a job's days stands between two invocations: the day and dataset (places in `days` and
 * WRITE_ORDER), and, while a dataset's object is half written, its upload, the parts sent, and the read: the cursor of
 * the page being read and how many of its records are in the file. `day` past the last: every day written.
 */
export interface WriteAt {
  day: number;
  dataset: number;
  upload?: { id: string; parts: UploadedPart[] };
  read?: { cursor: ReadCursor; skip: number };
}
export const WRITE_START: WriteAt = { day: 0, dataset: 0 };
export const allWritten = (job: DaysJob, at: WriteAt): boolean => at.day >= job.days.length;

/** A dataset's records of a day, and how each becomes its row. */
interface DatasetRead {
  records: DayRecords<unknown>;
  row: (record: unknown) => Row;
}
const datasetRead = <T>(records: DayRecords<T>, row: (record: T) => Row) => ({ records, row }) as DatasetRead;

/** `limits`: the row group and part sizes a day is written in (small in the tests, to force several). */
export function analyticsExport(ports: AnalyticsPorts, { limits = WRITE_LIMITS }: { limits?: WriteLimits } = {}) {
  /** How a tenant's records become rows (its settings and pseudonym key read once), and its days' bounds. */
  async function tenantRows(tenantId: number) {
    const [settings, pseudonymKey] = await Promise.all([ports.settings(tenantId), ports.pseudonymKey(tenantId)]);
    const indicators = new Map(settings.journeys.map((journey) => [journey.id, journey.indicator]));
    const regions = regionsByStore(settings.regions ?? []);
    const customerKey = (id: number) => pseudonymOf(pseudonymKey, id);
    const context = {
      indicatorOf: (journeyId: number) => indicators.get(journeyId),
      regionOf: (storeId: number) => regions.get(storeId)?.[0],
      comments: (settings.analytics ?? ANALYTICS_DEFAULTS).comments,
      customerKey,
    };
    const zone = timeZoneOf(settings);
    const userKey = (user: string) => userPseudonymOf(pseudonymKey, user);
    const datasets: Record<DatasetId, DatasetRead> = {
      surveys: datasetRead(ports.surveys, (survey) => surveyRow(survey, customerKey)),
      cases: datasetRead(ports.cases, (record) => caseRow(record, { customerKey, userKey })),
      answers: datasetRead(ports.answers, (answer) => answerRow(answer, context)),
    };
    return { bounds: (day: string) => dayBounds(day, zone), datasets };
  }

  /**
   * Writes the job's days from `start` on, each dataset's day one object streamed as it is read (one multipart upload,
   * shown whole when completed), until `due()` says the time is spent: it is asked after each row group and each object
   * completed, so a link always gets on. `saved` is the half-written file `start` stopped in (parquet.ts). Answers where
   * it stopped, with the file to go on from when that is half way through an object. `completed` is told where the
   * writing stands after each object completed (a chain saves it, so that a retry sends no part to a completed upload).
   */
  async function writeDays(
    job: DaysJob,
    start: WriteAt,
    {
      saved,
      due = () => false,
      completed = async () => {},
    }: { saved?: ParquetState | undefined; due?: () => boolean; completed?: (at: WriteAt) => Promise<void> } = {},
  ): Promise<{ at: WriteAt; saved?: ParquetState }> {
    const { tenantId } = job;
    const tenant = await tenantRows(tenantId);

    /** A dataset's day from `at` on: its object completed (undefined), or where `due` stopped it. */
    async function writeObject(at: WriteAt, resumed: ParquetState | undefined): Promise<{ at: WriteAt; saved: ParquetState } | undefined> {
      const day = job.days[at.day]!;
      const dataset = WRITE_ORDER[at.dataset]!;
      const key = objectKeyOf(dataset, tenantId, day);
      const upload = at.upload ?? { id: await ports.files.begin(key), parts: [] };
      const parts = [...upload.parts];
      const file = parquetFile(DATASETS[dataset], {
        part: async (bytes) => {
          const n = parts.length + 1;
          parts.push({ n, etag: await ports.files.part(key, { uploadId: upload.id, n, bytes }) });
        },
        limits,
        saved: resumed,
      });
      const { from, to } = tenant.bounds(day);
      const { records, row } = tenant.datasets[dataset];
      const read = at.read;
      for await (const page of records.between(tenantId, { from, to, start: read?.cursor })) {
        // Of the page the last link stopped in, the records already in the file.
        const skip = read && JSON.stringify(page.at) === JSON.stringify(read.cursor) ? read.skip : 0;
        for (let i = skip; i < page.records.length; i++)
          if ((await file.add(row(page.records[i]))) && due())
            return { at: { ...at, upload: { id: upload.id, parts }, read: { cursor: page.at, skip: i + 1 } }, saved: file.save() };
      }
      const { rows, groups } = await file.finish();
      await ports.files.complete(key, upload.id, parts);
      logger.info('Analytics day exported', { tenantId, day, dataset, rows, groups, parts: parts.length });
      return undefined;
    }

    let at = start;
    let resumed = saved;
    while (!allWritten(job, at)) {
      let stopped: { at: WriteAt; saved: ParquetState } | undefined;
      try {
        stopped = await writeObject(at, at.upload ? resumed : undefined);
      } catch (error) {
        // The upload it went on with is gone: completed by a link that died before saving that (or removed by the
        // bucket's lifecycle after a day): the object is written again from its first row.
        if (!(error instanceof UploadGone) || !at.upload) throw error;
        logger.warn('Analytics upload gone: its object is written again', { tenantId, day: job.days[at.day], dataset: at.dataset });
        at = { day: at.day, dataset: at.dataset };
        resumed = undefined;
        continue;
      }
      if (stopped) return stopped;
      at = at.dataset + 1 < WRITE_ORDER.length ? { day: at.day, dataset: at.dataset + 1 } : { day: at.day + 1, dataset: 0 };
      await completed(at);
      if (due()) break;
    }
    return { at };
  }

  /** The days from `from` to `to` (both included), and whether to write each: not written yet, or `force`. */
  async function daysToWrite(
    tenantId: number,
    { from, to, force }: { from: string; to: string; force: boolean },
  ): Promise<{ day: string; write: boolean }[]> {
    const days: { day: string; write: boolean }[] = [];
    for (let day = from; day <= to; day = addDays(day, 1))
      days.push({ day, write: force || !(await ports.files.exists(objectKeyOf('answers', tenantId, day))) });
    return days;
  }

  /**
   * Writes the days from `from` to `to` (both included), in order, in one go (the admin command: one process, no time
   * limit); unless `force`, a day already written is skipped (a resumed run). Answers what it did with each.
   */
  async function exportDays(
    tenantId: number,
    { from, to, force = false }: { from: string; to: string; force?: boolean },
  ): Promise<{ day: string; outcome: string }[]> {
    const days = await daysToWrite(tenantId, { from, to, force });
    await writeDays({ tenantId, days: days.filter((d) => d.write).map((d) => d.day) }, WRITE_START);
    return days.map(({ day, write }) => ({ day, outcome: write ? 'written' : 'skipped' }));
  }

  const exportDay = async (tenantId: number, day: string, force = false): Promise<string> =>
    (await exportDays(tenantId, { from: day, to: day, force }))[0]!.outcome;

  /** Of the days these instants fall on (a transaction's registration and answer), those written already, in order. */
  async function writtenDaysOf(tenantId: number, instants: string[]): Promise<string[]> {
    const zone = timeZoneOf(await ports.settings(tenantId));
    const days = [...new Set(instants.map((at) => localDayOf(at, zone)))].sort();
    const written = await Promise.all(days.map((day) => ports.files.exists(objectKeyOf('answers', tenantId, day))));
    return days.filter((_, i) => written[i]);
  }

  /**
   * The days a late change marked (a case moved, an answer corrected) that have ended by `through` (the tenant's last
   * whole day), and those marks: a mark reaching a day not over yet waits (that day's own run writes it).
   */
  async function markedDays(tenantId: number, through: string): Promise<{ days: string[]; marks: DirtyMark[] }> {
    const marks = await ports.dirty.list(tenantId);
    if (!marks.length) return { days: [], marks };
    const zone = timeZoneOf(await ports.settings(tenantId));
    const ready = marks.filter((mark) => localDaysOfUtcDay(mark.utcDay, zone).every((day) => day <= through));
    return { days: [...new Set(ready.flatMap((mark) => localDaysOfUtcDay(mark.utcDay, zone)))].sort(), marks: ready };
  }

  /** Clears marks read before their days were written: only while unchanged, so a change made since keeps its mark. */
  async function clearMarks(tenantId: number, marks: DirtyMark[]): Promise<void> {
    for (const mark of marks) await ports.dirty.clear(tenantId, mark);
  }

  /** Writes again, in one go, the days a late change marked that have ended by `through`, then clears their marks. */
  async function rewriteDirty(tenantId: number, through: string): Promise<string[]> {
    const { days, marks } = await markedDays(tenantId, through);
    await writeDays({ tenantId, days }, WRITE_START);
    await clearMarks(tenantId, marks);
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

  return { writeDays, exportDay, exportDays, writtenDaysOf, markedDays, clearMarks, rewriteDirty, expireDays };
}

export type AnalyticsExport = ReturnType<typeof analyticsExport>;
