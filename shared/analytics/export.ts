import { createHmac } from 'node:crypto';
import { instantAt } from '../cases/deadline.js';
import { addDays } from '../dates.js';
import { timeZoneOf } from '../locale.js';
import { logger } from '../logger.js';
import { regionsByStore } from '../regions.js';
import { bucketOf } from '../surveys/questions.js';
import { ANALYTICS_DEFAULTS } from '../tenants/scales.js';
import { DATASET_IDS, DATASETS, objectKeyOf } from './datasets.js';
import { parquetOf, type Row } from './parquet.js';
import type { AnalyticsPorts, DayAnswer } from './ports.js';

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

/**
 * The customer as the export names them: a keyed hash (HMAC-SHA-256) whose key is the tenant's own, so that ids do not
 * join across tenants and cannot be reversed without the key, which never leaves the service.
 */
export const pseudonymOf = (key: string, customerId: number): string =>
  createHmac('sha256', key).update(String(customerId)).digest('base64url').slice(0, 22);

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

export function analyticsExport(ports: AnalyticsPorts) {
  /** Writes a tenant's day of every dataset; unless `force`, a day already written is left as it is (a resumed run). */
  async function exportDay(tenantId: number, day: string, force = false): Promise<'written' | 'skipped'> {
    const key = objectKeyOf('answers', tenantId, day);
    if (!force && (await ports.files.exists(key))) return 'skipped';
    const [settings, pseudonymKey] = await Promise.all([ports.settings(tenantId), ports.pseudonymKey(tenantId)]);
    const { from, to } = dayBounds(day, timeZoneOf(settings));
    const indicators = new Map(settings.journeys.map((journey) => [journey.id, journey.indicator]));
    const regions = regionsByStore(settings.regions ?? []);
    const context = {
      indicatorOf: (journeyId: number) => indicators.get(journeyId),
      regionOf: (storeId: number) => regions.get(storeId)?.[0],
      comments: (settings.analytics ?? ANALYTICS_DEFAULTS).comments,
      customerKey: (id: number) => pseudonymOf(pseudonymKey, id),
    };
    const rows: Row[] = [];
    for await (const page of ports.answers.between(tenantId, from, to)) rows.push(...page.map((answer) => answerRow(answer, context)));
    await ports.files.put(key, parquetOf(DATASETS.answers, rows));
    logger.info('Analytics day exported', { tenantId, day, rows: rows.length });
    return 'written';
  }

  /** Writes the days from `from` to `to` (both included), in order; answers what it did with each. */
  async function exportDays(tenantId: number, from: string, to: string, force = false): Promise<{ day: string; outcome: string }[]> {
    const done: { day: string; outcome: string }[] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) done.push({ day, outcome: await exportDay(tenantId, day, force) });
    return done;
  }

  /**
   * Writes again the days these answers belong to, among those already written (an erasure: the rows come back
   * without the customer's key and comment, as the table now holds them). Days never exported stay unwritten.
   */
  async function rewriteDaysOf(tenantId: number, answeredAts: string[]): Promise<number> {
    const zone = timeZoneOf(await ports.settings(tenantId));
    const days = [...new Set(answeredAts.map((at) => localDayOf(at, zone)))];
    let rewritten = 0;
    for (const day of days)
      if (await ports.files.exists(objectKeyOf('answers', tenantId, day))) {
        await exportDay(tenantId, day, true);
        rewritten++;
      }
    return rewritten;
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

  return { exportDay, exportDays, rewriteDaysOf, expireDays };
}

export type AnalyticsExport = ReturnType<typeof analyticsExport>;
