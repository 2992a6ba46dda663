import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { DayAnswer, DayAnswers, DayPage, DayRead } from '../analytics/ports.js';
import { RATING_SOURCES, type SourceName } from '../channels.js';
import { monthsOf } from '../dates.js';
import { indexAttributes, type IndexName } from '../table.js';
import { db, type Item } from './dynamodb.js';
import { contactGone, unexpired } from './personal-copies.js';
import { evaluationPartitions } from './transaction-repository.js';

/**
 * The answers of a period for the analytics export: the evaluation index's partitions of its months (gsi2, the one
 * the evaluation list reads: whole items, EVALUATION_SHARDS a month), each Queried between the period's ends, in
 * parallel, a page of each at a time. Never a Scan: a day of a tenant of 10 million transactions reads its own
 * answers only (`npm run bench -- cost`).
 */

const Answered = v.object({
  id: v.number(),
  journey_id: v.number(),
  store_id: v.number(),
  employee_id: v.number(),
  customer_id: v.number(),
  eval_source: v.optional(v.picklist(Object.keys(RATING_SOURCES) as SourceName[]), 'api'),
  rating: v.object({ score: v.number(), comment: v.optional(v.nullable(v.string()), null) }),
  rating_items: v.optional(v.array(v.object({ class_id: v.number(), score: v.number() })), []),
  survey: v.optional(v.object({ channel: v.optional(v.nullable(v.string()), null) })),
  attempts: v.optional(v.array(v.object({ sent_at: v.optional(v.string()) })), []),
  analysis: v.optional(v.object({ sentiment: v.optional(v.string()), themes: v.optional(v.array(v.string())) })),
  created_at: v.string(),
  answered_at: v.string(),
});

function answerOf(item: Item): DayAnswer {
  const a = v.parse(Answered, unexpired(item));
  const sent = a.attempts.flatMap((attempt) => (attempt.sent_at ? [attempt.sent_at] : [])).sort();
  return {
    transactionId: a.id,
    // An erased customer, or one whose copies expired, is no one's any more.
    customerId: contactGone(item) ? null : a.customer_id,
    journeyId: a.journey_id,
    storeId: a.store_id,
    employeeId: a.employee_id,
    source: a.eval_source,
    channel: a.survey?.channel ?? null,
    score: a.rating.score,
    items: a.rating_items.map((i) => ({ classId: i.class_id, score: i.score })),
    comment: a.rating.comment,
    sentiment: a.analysis?.sentiment ?? null,
    themes: a.analysis?.themes ?? null,
    createdAt: a.created_at,
    sentAt: sent[0] ?? null,
    answeredAt: a.answered_at,
  };
}

/**
 * The items of index partitions whose sort key (`<instant>#<id>`) is in [from, to), partition by partition, a page at a
 * time, each with the cursor it was read from: the analytics export's one read of a day, whatever the dataset. From
 * `start` (a cursor a page was read from) the read begins again with that page.
 */
export async function* itemsBetween(
  /** An index, or `table`: the table's own partitions (the consumer batches' lists of their registrations). */
  index: IndexName | 'table',
  { partitions, from, to, instantOf, start = { partition: 0 } }: DayRead & { partitions: string[]; instantOf: (item: Item) => unknown },
): AsyncGenerator<DayPage<Item>> {
  const { client, tableName } = db();
  const { partitionKey, sortKey } = index === 'table' ? { partitionKey: 'pk', sortKey: 'sk' } : indexAttributes(index);
  for (let p = start.partition; p < partitions.length; p++) {
    const partition = partitions[p];
    let startKey: Item | undefined = p === start.partition ? start.key : undefined;
    do {
      const out: QueryCommandOutput = await client.send(
        new QueryCommand({
          TableName: tableName,
          ...(index === 'table' ? {} : { IndexName: index }),
          KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
          ExpressionAttributeNames: { '#pk': partitionKey, '#sk': sortKey },
          ExpressionAttributeValues: { ':pk': partition, ':from': from, ':to': to },
          ExclusiveStartKey: startKey,
        }),
      );
      // An item at `to` sorts above it (`<to>#<id>`): the next day's.
      const items = (out.Items ?? []).filter((item) => {
        const at = instantOf(item);
        return typeof at === 'string' && at < to;
      });
      if (items.length) yield { records: items, at: { partition: p, ...(startKey ? { key: startKey } : {}) } };
      startKey = out.LastEvaluatedKey;
    } while (startKey);
  }
}

async function* between(tenantId: number, { from, to, start }: DayRead): AsyncGenerator<DayPage<DayAnswer>> {
  // The sort key is `<answered at>#<id>`: from `from` on, and below `to`.
  const partitions = monthsOf(from.slice(0, 10), to.slice(0, 10)).flatMap((month) => evaluationPartitions(tenantId, month));
  for await (const page of itemsBetween('gsi2', { partitions, from, to, instantOf: (item) => item.answered_at, start }))
    yield { records: page.records.map(answerOf), at: page.at };
}

export const dayAnswers: DayAnswers = { between };
