import * as v from 'valibot';
import { ownerOfStored } from '../cases/owner.js';
import type { DayCase, DayPage, DayRead, DayRecords, DaySurvey } from '../analytics/ports.js';
import { monthsOf } from '../dates.js';
import { keys } from '../keys.js';
import { itemsBetween } from './analytics-answers.js';
import { CASE_SHARDS } from './case-repository.js';
import { batchGet, db, type Item } from './dynamodb.js';
import { contactGone, unexpired } from './personal-copies.js';
import { linksLapsed } from '../surveys/attempts.js';
import { EVALUATION_SHARDS } from './transaction-repository.js';

/**
 * The surveys and cases of a tenant's day for the analytics export (docs/analytics.md): Queries of the shards of the
 * month partitions their items are listed in by the instant they began (keys.surveysByMonth and keys.casesByMonth in
 * gsi15, keys only), then BatchGetItem of the items a page names; never a Scan.
 */

const partitionsOf = ({ from, to }: DayRead, shards: number, partition: (month: string, shard: number) => string) =>
  monthsOf(from.slice(0, 10), to.slice(0, 10)).flatMap((month) => Array.from({ length: shards }, (_, shard) => partition(month, shard)));

const Registered = v.object({
  id: v.number(),
  customer_id: v.number(),
  journey_id: v.number(),
  store_id: v.number(),
  employee_id: v.number(),
  survey: v.object({
    status: v.string(),
    reason: v.optional(v.nullable(v.string()), null),
    channel: v.optional(v.nullable(v.string()), null),
    expires_at: v.optional(v.string()),
  }),
  attempts: v.optional(v.array(v.object({ status: v.string(), sent_at: v.optional(v.string()) })), []),
  created_at: v.string(),
  answered_at: v.optional(v.string()),
});

function surveyOf(item: Item): DaySurvey {
  const t = v.parse(Registered, unexpired(item));
  const sent = t.attempts.flatMap((attempt) => (attempt.sent_at && attempt.status === 'sent' ? [attempt.sent_at] : [])).sort();
  return {
    transactionId: t.id,
    customerId: contactGone(item) ? null : t.customer_id,
    journeyId: t.journey_id,
    storeId: t.store_id,
    employeeId: t.employee_id,
    // Lapsed unanswered is a status no write records: its links' time ran out (as the survey is shown, surveyAsSeen).
    outcome: t.survey.status !== 'answered' && linksLapsed(t.survey, new Date()) ? 'expired' : t.survey.status,
    reason: t.survey.reason,
    channel: t.survey.channel,
    attempts: sent.length,
    createdAt: t.created_at,
    sentAt: sent[0] ?? null,
    answeredAt: t.answered_at ?? null,
  };
}

const Opened = v.object({
  id: v.number(),
  customerId: v.number(),
  journeyId: v.number(),
  storeId: v.number(),
  employeeId: v.number(),
  score: v.number(),
  owners: v.optional(v.array(v.string()), []),
  status: v.string(),
  openedAt: v.string(),
  dueAt: v.string(),
  overdueAt: v.optional(v.nullable(v.string()), null),
  firstContactAt: v.optional(v.nullable(v.string()), null),
  closedAt: v.optional(v.nullable(v.string()), null),
  rootCause: v.optional(v.nullable(v.string()), null),
  recovery: v.optional(v.nullable(v.object({ outcome: v.string(), score: v.optional(v.nullable(v.number())) })), null),
  erased: v.optional(v.boolean(), false),
});

function caseOf(item: Item): DayCase {
  const c = v.parse(Opened, item);
  return {
    transactionId: c.id,
    customerId: c.erased ? null : c.customerId,
    journeyId: c.journeyId,
    storeId: c.storeId,
    employeeId: c.employeeId,
    score: c.score,
    owner: ownerOfStored(c.owners),
    status: c.status,
    openedAt: c.openedAt,
    dueAt: c.dueAt,
    overdueAt: c.overdueAt,
    firstContactAt: c.firstContactAt,
    closedAt: c.closedAt,
    rootCause: c.rootCause,
    recovery: c.recovery?.outcome ?? null,
    recoveryScore: c.recovery?.score ?? null,
  };
}

/** The items listed in gsi15 between two instants, a page at a time (the entry's sort key: `<instant>#<id>`). */
async function* listedBetween(partitions: string[], read: DayRead): AsyncGenerator<DayPage<Item>> {
  const instantOf = (entry: Item) => String(entry.gsi15sk).split('#')[0];
  for await (const { records: entries, at } of itemsBetween('gsi15', { partitions, ...read, instantOf })) {
    const read = await batchGet(
      db(),
      entries.map(({ pk, sk }) => ({ pk, sk })),
    );
    const items = new Map(read.map((item): [unknown, Item] => [item.pk, item]));
    // In the index's order; an item gone since it was listed (a retention sweep) is left out.
    yield { records: entries.flatMap(({ pk }): Item[] => (items.has(pk) ? [items.get(pk)!] : [])), at };
  }
}

/**
 * The transactions the consumer batches' lists name between two instants (transactionRepository.listRegistrations: an
 * item per batch and tenant in the table's own partitions, sort key `<instant>#L<list id>`), a page of lists at a time:
 * each listed id whose item names this list and was registered at its instant, in the list's order.
 */
async function* batchListedBetween(tenantId: number, partitions: string[], read: DayRead) {
  const instantOf = (list: Item) => String(list.sk).split('#')[0];
  for await (const { records: lists, at } of itemsBetween('table', { partitions, ...read, instantOf })) {
    const listed = lists.flatMap((list) => (list.ids as number[]).map((id) => ({ id, list: String(list.sk), at: instantOf(list) })));
    const read = await batchGet(
      db(),
      listed.map(({ id }) => keys.transaction(tenantId, id)),
    );
    const items = new Map(read.map((item): [unknown, Item] => [item.pk, item]));
    const records = listed.flatMap(({ id, list, at: instant }): Item[] => {
      const item = items.get(keys.transaction(tenantId, id).pk);
      return item?.status === 'created' && item.survey_list === list && item.created_at === instant ? [item] : [];
    });
    if (records.length) yield { records, at };
  }
}

export const daySurveys: DayRecords<DaySurvey> = {
  /**
   * Two lists, read one after the other: the transactions' own entries in gsi15 (those registered before the batches'
   * lists, and by the synchronous routes), then the batches' lists; a cursor past the first's partitions is the second's.
   */
  async *between(tenantId, { from, to, start }) {
    const partitions = partitionsOf({ from, to }, EVALUATION_SHARDS, (month, shard) => keys.surveysByMonth(tenantId, month, shard));
    const own = partitions.length;
    if (!start || start.partition < own)
      for await (const page of listedBetween(partitions, { from, to, start })) yield { records: page.records.map(surveyOf), at: page.at };
    const fromList = start && start.partition >= own ? { ...start, partition: start.partition - own } : undefined;
    for await (const page of batchListedBetween(tenantId, partitions, { from, to, start: fromList }))
      yield { records: page.records.map(surveyOf), at: { ...page.at, partition: page.at.partition + own } };
  },
};

export const dayCases: DayRecords<DayCase> = {
  async *between(tenantId, read) {
    const partitions = partitionsOf(read, CASE_SHARDS, (month, shard) => keys.casesByMonth(tenantId, month, shard));
    for await (const page of listedBetween(partitions, read)) yield { records: page.records.map(caseOf), at: page.at };
  },
};
