import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { ValidationError } from '../errors.js';
import { keys } from '../keys.js';
import { indexAttributes } from '../table.js';

/** gsi2 lists evaluations by month, newest first. */
const BY_MONTH = indexAttributes('gsi2');
import type { AnsweredBetween, AnswerOutcome, AnswerWrite, EvaluationStore } from '../surveys/ports.js';
import type { TransactionRecord } from '../transaction-record.js';
import { db, type Item } from './dynamodb.js';
import { dirtyMark } from './analytics-dirty.js';
import { counterUpdates, updateCounting } from './result-counters.js';
import { retentionAttributes } from './personal-copies.js';
import { openCursor, sealCursor } from './cursor.js';
import { answerAttributes, evaluationIndex, evaluationPartitions, findById, fromItem } from './transaction-repository.js';

/**
 * Writes an answer onto a transaction's survey attempt with one conditional UpdateItem. `create` requires the
 * attempt not to be answered yet (two answers at once: one wins); `replace` requires an answer to exist.
 */
async function writeAnswer(
  tenantId: number,
  { read, attemptId, mode, answer, tally, analyticsMark }: AnswerWrite,
): Promise<{ outcome: AnswerOutcome; record?: TransactionRecord }> {
  const { transaction } = read;
  const { id } = transaction;
  const counting = { seenVersion: read.answer?.version };
  const set: Item = {
    rating: answer.rating,
    rating_items: answer.ratingItems,
    ...answerAttributes(answer.origin),
    respondent: answer.respondent,
    answer_version: (mode === 'replace' ? (counting.seenVersion ?? 0) : 0) + 1,
    // The first answer's time stays: a correction does not move the evaluation in the lists.
    ...(mode === 'create' ? evaluationIndex(tenantId, transaction, answer.origin.answeredAt) : {}),
    // Under a retention, what the answer says is kept that long after it, and the transaction's copies with it.
    ...(read.retentionDays ? retentionAttributes(tenantId, id, { retentionDays: read.retentionDays, from: answer.origin.answeredAt }) : {}),
  };
  const { tableName } = db();
  const names: Record<string, string> = {
    '#survey': 'survey',
    '#status': 'status',
    '#attempt': 'attempt_id',
    '#version': 'answer_version',
    '#erased': 'erased_at',
  };
  const values: Item = { ':attempt': attemptId, ':answered': 'answered', ':created': 'created' };
  const assignments = Object.entries(set).map(([name, value], i) => {
    names[`#a${i}`] = name;
    values[`:a${i}`] = value;
    return `#a${i} = :a${i}`;
  });
  // A correction moves the counts of the answer it read: it requires that answer still to be there.
  const seen =
    mode === 'create' ? '' : counting.seenVersion === undefined ? ' AND attribute_not_exists(#version)' : ' AND #version = :seen';
  if (mode === 'replace' && counting.seenVersion !== undefined) values[':seen'] = counting.seenVersion;
  if (!seen) delete names['#version'];
  const state = mode === 'create' ? '#survey.#status <> :answered' : '#survey.#status = :answered';
  const written = await updateCounting(
    {
      TableName: tableName,
      Key: keys.transaction(tenantId, id),
      UpdateExpression: `SET ${assignments.join(', ')}, #survey.#status = :answered`,
      // An erased customer's transaction takes no new answer: its comment and respondent would bring personal data back.
      ConditionExpression: `#status = :created AND attribute_not_exists(#erased) AND #survey.#attempt >= :attempt AND ${state}${seen}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
    [
      ...(tally ? counterUpdates(tenantId, tally, id) : []),
      // A correction's day of the analytics export (its first answer's) is written again by the next run.
      ...(mode === 'replace' && read.answer ? [dirtyMark(tenantId, { instant: read.answer.answeredAt, recordId: id })] : []),
      // An answer after its survey's registration day: that day's surveys row changes.
      ...(analyticsMark ? [dirtyMark(tenantId, { instant: analyticsMark, recordId: id })] : []),
    ],
  );
  // Written: the record read with the answer on it (the condition held, so nothing else changed what it shows).
  if (written)
    return {
      outcome: 'written',
      record: {
        ...read,
        transaction: {
          ...transaction,
          rating: answer.rating,
          rating_items: answer.ratingItems,
          survey: { ...transaction.survey, status: 'answered' },
        },
        answer: {
          ...answer.origin,
          answeredAt: mode === 'replace' ? (read.answer?.answeredAt ?? answer.origin.answeredAt) : answer.origin.answeredAt,
          version: set.answer_version as number,
        },
      },
    };
  const { Item: stored } = await db().client.send(
    new GetCommand({ TableName: tableName, Key: keys.transaction(tenantId, id), ConsistentRead: true }),
  );
  const answered = stored?.survey as { status?: string; attempt_id?: number } | undefined;
  const conflict =
    stored?.status === 'created' && !stored.erased_at && (answered?.attempt_id ?? 0) >= attemptId && answered?.status === 'answered';
  // A correction that lost to another one at once is a conflict too: the caller reads again and retries.
  return { outcome: conflict && (mode === 'create' || seen !== '') ? 'conflict' : 'missing' };
}

/**
 * Evaluations answered between two instants, newest first, across the month partitions they span: each month's shards
 * (and its unsharded partition, where evaluations written before shards are) are read at once, each for one more entry
 * than the page still needs, and merged by their sort key, which is unique (the time, then the transaction id); the
 * cursor is the month and the last sort key given, below which every partition continues.
 */
async function queryEvaluations(
  tenantId: number,
  { from, to, limit, cursor }: AnsweredBetween,
): Promise<{ items: Item[]; nextCursor: string | null }> {
  const { client, tableName } = db();
  const months = monthsBetween(from, to).reverse();
  const query = queryOf(tenantId, from, to);
  let position: Position = cursor ? decode(cursor, { query, months, from, to }) : { month: months[0]! };
  const items: Item[] = [];
  const partitions = (month: string) => evaluationPartitions(tenantId, month);
  for (;;) {
    const wanted = limit - items.length;
    const before = position.before;
    const pages = await Promise.all(
      partitions(position.month).map(async (partition) => {
        const out = await client.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: 'gsi2',
            KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
            ExpressionAttributeNames: { '#pk': BY_MONTH.partitionKey, '#sk': BY_MONTH.sortKey },
            ExpressionAttributeValues: { ':pk': partition, ':from': from, ':to': before ?? `${to}\uffff` },
            ScanIndexForward: false,
            Limit: wanted + 1,
          }),
        );
        return out.Items ?? [];
      }),
    );
    const sortOf = (item: Item) => String(item[BY_MONTH.sortKey]);
    const merged = pages
      .flat()
      .filter((item) => sortOf(item) !== before)
      .sort((a, b) => (sortOf(a) < sortOf(b) ? 1 : -1));
    const taken = merged.slice(0, wanted);
    items.push(...taken);
    const next = months[months.indexOf(position.month) + 1];
    if (merged.length > taken.length) position = { month: position.month, before: sortOf(taken.at(-1)!) };
    else if (next) position = { month: next };
    else return { items, nextCursor: null };
    if (items.length >= limit) return { items, nextCursor: sealCursor(position, query) };
  }
}

async function queryByExternalId(tenantId: number, externalId: string): Promise<Item | undefined> {
  const { client, tableName } = db();
  const { Items } = await client.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: 'gsi4',
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': indexAttributes('gsi4').partitionKey },
      ExpressionAttributeValues: { ':pk': keys.evaluationByExternalId(tenantId, externalId) },
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  return Items?.[0];
}

/** The most month partitions one query may span: 92 days touch at most 4 months. */
export const MAX_MONTHS_PER_QUERY = 4;

/** The months (YYYY-MM) from one date to another, counted on numbers so that no year sorts wrong; bounded. */
export function monthsBetween(from: string, to: string): string[] {
  const index = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
  const first = index(from);
  const count = index(to) - first + 1;
  if (!(count >= 1 && count <= MAX_MONTHS_PER_QUERY))
    throw new ValidationError('The date range is too long.', [
      { path: 'end_date', message: `the range may span at most ${MAX_MONTHS_PER_QUERY} months` },
    ]);
  return Array.from(
    { length: count },
    (_, i) => `${String(Math.floor((first + i) / 12)).padStart(4, '0')}-${String(((first + i) % 12) + 1).padStart(2, '0')}`,
  );
}

/** The query an evaluation cursor belongs to: the tenant and the dates. */
const queryOf = (tenantId: number, from: string, to: string) => JSON.stringify(['evaluations', tenantId, from, to]);

/** What an evaluation cursor holds: the month, and the sort key of the last evaluation given in it. */
const Position = v.strictObject({ month: v.string(), before: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(1024))) });
type Position = v.InferOutput<typeof Position>;

/** The position a cursor of this query (`queryOf`) holds, if it lies within its months and dates. */
function decode(cursor: string, { query, months, from, to }: { query: string; months: string[]; from: string; to: string }): Position {
  try {
    const position = v.parse(Position, openCursor(cursor, query));
    const { month, before } = position;
    if (months.includes(month) && (before === undefined || (before.startsWith(month) && before >= from && before <= `${to}\uffff`)))
      return position;
  } catch {
    // falls through
  }
  throw new ValidationError('The cursor is not valid for this query.', [
    { path: 'cursor', message: 'must be a next_cursor returned by this list with the same dates' },
  ]);
}

export const evaluationStore: EvaluationStore = {
  transaction: findById,
  writeAnswer,
  async answeredBetween(tenantId, range) {
    const { items, nextCursor } = await queryEvaluations(tenantId, range);
    return { items: items.map(fromItem), nextCursor };
  },
  async answeredByExternalId(tenantId, externalId) {
    const item = await queryByExternalId(tenantId, externalId);
    return item?.status === 'created' && item.answered_at ? fromItem(item) : undefined;
  },
};
