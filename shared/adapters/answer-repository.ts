import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { AnswerSelection, AnswerStore, StoredAnswer } from '../answers/ports.js';
import { RATING_SOURCES, type SourceName } from '../channels.js';
import { keys } from '../keys.js';
import { indexAttributes, TABLE, type IndexName } from '../table.js';
import { openCursor, sealCursor } from './cursor.js';
import { batchGet, conditionHeld, db, queryPages, type Item } from './dynamodb.js';
import { SENTIMENTS } from '../themes/ports.js';
import { unexpired } from './personal-copies.js';
import { ANSWER_SHARDS, answerIndex, evaluationPartitions } from './transaction-repository.js';

/**
 * Answers, newest first, from the answer indexes (written with the evaluation's, `evaluationIndex`): a few stores'
 * partitions (gsi10), or the tenant's shards (gsi11). A page queries each partition once, in parallel, and merges
 * them; the cursor is the sort key the page ended at, the same boundary for every partition. A page of one theme or
 * one sentiment reads that filter's own partitions of the same indexes, whose small entries the analysis writes
 * (analysis-repository.ts). Then one BatchGetItem reads the page's answers themselves: the indexes do not hold the
 * analysis (an index's projection cannot change in place), and an entry of a theme holds only what the list filters on.
 */

/** Up to this many stores are read from their own partitions; a user of more stores reads the shards with a filter. */
export const MAX_STORE_PARTITIONS = 10;
/** What a filtered page reads of each partition at most: a bounded cost per page, however rare the filter's matches. */
export const FILTERED_READ = 200;

interface Source {
  index: IndexName;
  partition: string;
}

/** The theme's entries when a theme is asked, else the sentiment's, else the answers' own. */
const listedBy = ({ theme, sentiment }: AnswerSelection) =>
  theme !== undefined
    ? { filter: 'theme' as const, value: theme }
    : sentiment !== undefined
      ? { filter: 'sentiment' as const, value: sentiment }
      : undefined;

function sourcesOf(selection: AnswerSelection): Source[] {
  const { tenantId, stores } = selection;
  const by = listedBy(selection);
  return stores && stores.length <= MAX_STORE_PARTITIONS
    ? stores.map((store) => ({
        index: 'gsi10',
        partition: by ? keys.answersByStoreWith(tenantId, store, by) : keys.answersByStore(tenantId, store),
      }))
    : Array.from({ length: ANSWER_SHARDS }, (_, shard) => ({
        index: 'gsi11',
        partition: by ? keys.answersByShardWith(tenantId, shard, by) : keys.answersByShard(tenantId, shard),
      }));
}

/** The filter expression of a selection (names and values), or none. */
function filterOf(selection: AnswerSelection): { expression?: string; names: Record<string, string>; values: Item } {
  const names: Record<string, string> = {};
  const values: Item = {};
  const parts: string[] = [];
  const name = (n: string) => ((names[`#${n}`] = n), `#${n}`);
  let i = 0;
  const value = (x: unknown) => ((values[`:f${i}`] = x), `:f${i++}`);
  const score = () => `${name('rating')}.${name('score')}`;
  const comment = () => `${name('rating')}.${name('comment')}`;
  // DynamoDB refuses redundant parentheses: a group is wrapped only when it joins several terms with OR (AND binds tighter).
  const anyOf = (terms: string[]) => (terms.length > 1 ? `(${terms.join(' OR ')})` : terms[0]!);
  if (selection.stores && selection.stores.length > MAX_STORE_PARTITIONS) {
    // IN takes at most 100 operands.
    const chunks = Array.from({ length: Math.ceil(selection.stores.length / 100) }, (_, c) =>
      selection.stores!.slice(c * 100, c * 100 + 100),
    );
    parts.push(anyOf(chunks.map((chunk) => `${name('store_id')} IN (${chunk.map(value).join(', ')})`)));
  }
  if (selection.journeys)
    parts.push(
      anyOf(
        selection.journeys.map(
          (j) =>
            `${name('journey_id')} = ${value(j.id)}${j.scores ? ` AND ${score()} BETWEEN ${value(j.scores.min)} AND ${value(j.scores.max)}` : ''}`,
        ),
      ),
    );
  if (selection.employee !== undefined) parts.push(`${name('employee_id')} = ${value(selection.employee)}`);
  if (selection.rated) {
    const { classId, scores } = selection.rated;
    // A list holds a map equal to one of the class's possible items: the item shape is this module's to know.
    parts.push(anyOf(scores.map((s) => `contains(${name('rating_items')}, ${value({ class_id: classId, score: s })})`)));
  }
  if (selection.source !== undefined) {
    // An answer stored before sources were kept was a rating sent with the sale.
    const same = `${name('eval_source')} = ${value(selection.source)}`;
    parts.push(selection.source === 'api' ? `(attribute_not_exists(${name('eval_source')}) OR ${same})` : same);
  }
  // An entry of a theme or a sentiment is of an answer with a comment, and holds no copy of it.
  if (selection.hasComment !== undefined && !listedBy(selection)) {
    const has = `attribute_type(${comment()}, ${value('S')}) AND size(${comment()}) > ${value(0)}`;
    parts.push(selection.hasComment ? has : `NOT (${has})`);
  }
  return { ...(parts.length ? { expression: parts.join(' AND ') } : {}), names, values };
}

const Stored = v.object({
  id: v.number(),
  transaction_id: v.optional(v.nullable(v.string()), null),
  answered_at: v.string(),
  journey_id: v.number(),
  store_id: v.number(),
  employee_id: v.number(),
  customer_id: v.number(),
  customer_name: v.optional(v.nullable(v.string()), null),
  eval_source: v.optional(v.picklist(Object.keys(RATING_SOURCES) as SourceName[]), 'api'),
  rating: v.object({ score: v.number(), comment: v.optional(v.nullable(v.string()), null) }),
  rating_items: v.optional(v.array(v.object({ class_id: v.number(), score: v.number() })), []),
  analysis: v.optional(
    v.object({
      sentiment: v.optional(v.picklist(SENTIMENTS)),
      themes: v.optional(v.array(v.string())),
      aspects: v.optional(v.array(v.object({ theme: v.string(), sentiment: v.picklist(SENTIMENTS) }))),
    }),
  ),
});

function answerOf(item: Item): StoredAnswer {
  const a = v.parse(Stored, unexpired(item));
  return {
    id: a.id,
    transactionId: a.transaction_id,
    answeredAt: a.answered_at,
    journeyId: a.journey_id,
    storeId: a.store_id,
    employeeId: a.employee_id,
    customerId: a.customer_id,
    customerName: a.customer_name,
    source: a.eval_source,
    score: a.rating.score,
    comment: a.rating.comment,
    items: a.rating_items.map((item) => ({ classId: item.class_id, score: item.score })),
    // What erasure and retention leave of an analysis (what it counted) says nothing of the comment: shown as none.
    sentiment: a.rating.comment !== null ? (a.analysis?.sentiment ?? null) : null,
    themes: a.rating.comment !== null ? (a.analysis?.themes ?? null) : null,
    aspects: a.rating.comment !== null && a.analysis?.themes ? (a.analysis.aspects ?? []) : null,
  };
}

/** What the list shows of an answer's item (BatchGetItem costs the same whole; the answer is smaller). */
const SHOWN = [...TABLE.indexes.find((index) => index.name === 'gsi10')!.include, 'analysis'];

/**
 * The answers of a page's entries, in the page's order: one BatchGetItem (eventually consistent, as the index is). An
 * entry of a theme or a sentiment whose answer no longer has it (a correction whose analysis has not yet run) is left out.
 */
async function answersOf(selection: AnswerSelection, entries: Item[]): Promise<StoredAnswer[]> {
  if (!entries.length) return [];
  const items = await batchGet(
    db(),
    entries.map((entry) => keys.transaction(selection.tenantId, Number(entry.id))),
    { projection: SHOWN },
  );
  const byId = new Map(items.map((item) => [Number(item.id), answerOf(item)]));
  return entries.flatMap((entry) => {
    const answer = byId.get(Number(entry.id));
    if (!answer) return [];
    if (selection.theme !== undefined && !answer.themes?.includes(selection.theme)) return [];
    if (selection.sentiment !== undefined && answer.sentiment !== selection.sentiment) return [];
    if (
      selection.aspect !== undefined &&
      !answer.aspects?.some((aspect) => aspect.theme === selection.theme && aspect.sentiment === selection.aspect)
    )
      return [];
    return [answer];
  });
}

const Position = v.strictObject({ before: v.pipe(v.string(), v.maxLength(200)) });

async function list(selection: AnswerSelection): Promise<{ answers: StoredAnswer[]; nextCursor: string | null }> {
  if (selection.journeys?.length === 0 || (selection.hasComment === false && listedBy(selection))) return { answers: [], nextCursor: null };
  const lower = selection.from;
  const last = `${selection.to}\uffff`;
  // A sealed cursor is one this function wrote for this query: its shape holds.
  const before = selection.cursor ? v.parse(Position, openCursor(selection.cursor, selection.query)).before : undefined;
  const upper = before !== undefined && before < last ? before : last;
  if (upper <= lower) return { answers: [], nextCursor: null };
  const filter = filterOf(selection);
  const read = filter.expression ? Math.max(selection.limit, FILTERED_READ) : selection.limit;
  const { client, tableName } = db();

  // Each partition read from `upper` down to its frontier (the last sort key it evaluated), or to `lower` when done.
  const pages = await Promise.all(
    sourcesOf(selection).map(async ({ index, partition }) => {
      const { partitionKey, sortKey } = indexAttributes(index);
      const out = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: index,
          KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lower AND :upper',
          ...(filter.expression ? { FilterExpression: filter.expression } : {}),
          ExpressionAttributeNames: { '#pk': partitionKey, '#sk': sortKey, ...filter.names },
          ExpressionAttributeValues: { ':pk': partition, ':lower': lower, ':upper': upper, ...filter.values },
          ScanIndexForward: false,
          // One more than a page: the boundary item itself may come back first.
          Limit: read + 1,
        }),
      );
      const items = (out.Items ?? []).map((item) => ({ sort: String(item[sortKey]), item })).filter(({ sort }) => sort !== before);
      return { items, frontier: out.LastEvaluatedKey ? String(out.LastEvaluatedKey[sortKey]) : null };
    }),
  );
  // Every partition has been read down to the highest frontier: the answers above it are complete, in order.
  const frontier = pages.reduce<string | null>(
    (high, page) => (page.frontier !== null && (high === null || page.frontier > high) ? page.frontier : high),
    null,
  );
  const merged = pages
    .flatMap((page) => page.items)
    .filter(({ sort }) => frontier === null || sort >= frontier)
    .sort((a, b) => (a.sort < b.sort ? 1 : -1));
  const page = merged.slice(0, selection.limit);
  const end =
    page.length === selection.limit && (merged.length > selection.limit || frontier !== null) ? page[page.length - 1]!.sort : frontier;
  return {
    answers: await answersOf(
      selection,
      page.map(({ item }) => item),
    ),
    nextCursor: end === null ? null : sealCursor({ before: end }, selection.query),
  };
}

export const answerStore: AnswerStore = { list };

/**
 * Puts the answers of a tenant answered in the given months (YYYY-MM) into the answer indexes, when they were stored
 * before those indexes existed: read from the month partitions of gsi2 (each month's shards too), each written once with a conditional
 * UpdateItem (`attribute_not_exists`), so that a second run, or an answer landing meanwhile, changes nothing. For the
 * operator (`npm run admin -- index-answers`), never on a request path. Answers how many it indexed.
 */
export async function indexAnswers(tenantId: number, months: string[]): Promise<number> {
  const database = db();
  const { partitionKey: storePartition } = indexAttributes('gsi10');
  let indexed = 0;
  for (const partition of months.flatMap((month) => evaluationPartitions(tenantId, month)))
    for await (const page of queryPages(database, { index: 'gsi2', partition }))
      for (const item of page) {
        if (item[storePartition] !== undefined || typeof item.answered_at !== 'string') continue;
        const entries = answerIndex(tenantId, { id: Number(item.id), store_id: Number(item.store_id) }, item.answered_at);
        const names = Object.keys(entries);
        const written = await conditionHeld(
          database.client.send(
            new UpdateCommand({
              TableName: database.tableName,
              Key: { pk: item.pk, sk: item.sk },
              UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :v${i}`).join(', ')}`,
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#n0)',
              ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#n${i}`, name])),
              ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, entries[name]])),
            }),
          ),
        );
        if (written) indexed++;
      }
  return indexed;
}
