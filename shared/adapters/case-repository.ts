import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { CaseSelection, CaseStore, WhatsAppClaim } from '../cases/ports.js';
import { ownerOfStored } from '../cases/owner.js';
import { CaseRecord, type CaseStatus } from '../cases/record.js';
import { keys } from '../keys.js';
import type { CounterDelta } from '../results/tally.js';
import { indexAttributes, inIndex, TABLE, type IndexName } from '../table.js';
import { openCursor, sealCursor } from './cursor.js';
import { batchGet, cancelledByCondition, conditionHeld, db, isConditionFailure, queryPages, type Item } from './dynamodb.js';
import { dirtyMark } from './analytics-dirty.js';
import { counterUpdates, updateCounting } from './result-counters.js';

/**
 * Cases (shared/cases/): one item per case under the transaction's id, written whole by a conditional put (open) or a
 * conditional update on its version (every change), and listed from three indexes in the list's order (shared/keys.ts,
 * `caseSort`): a store's partition of gsi12, the tenant's shards of gsi13, or by owner in gsi14 (a person's partition,
 * or the unassigned cases' shards).
 */

/**
 * The tenant-wide case index's partitions (and the unassigned cases'): a tenant opens cases at a fraction of its answers'
 * rate (gsi11 has 8).
 */
export const CASE_SHARDS = 4;
/** Up to this many stores are read from their own partitions; a user of more stores reads the shards with a filter. */
export const MAX_STORE_PARTITIONS = 10;
/** What a filtered page reads of each partition at most: a bounded cost per page, however rare the filter's matches. */
export const FILTERED_READ = 200;

const ENTITY = 'CASE';
/** The list's order: open, in progress, then the closed ones. */
const RANK: Record<CaseStatus, number> = { open: 1, in_progress: 2, resolved: 3, closed_unresolved: 4 };
/** The attributes a change never writes: the key, and the alert's claim (its own conditional write). */
const NOT_REPLACED = new Set(['id', 'alertedAt']);

const sortOf = (record: CaseRecord) =>
  keys.caseSort({ rank: RANK[record.status], overdue: record.overdue, dueAt: record.dueAt, id: record.id });

/** A case's index entries, at its place in the list's order: its store's partition, its shard, its owner's (or unassigned) partition. */
function indexEntries(tenantId: number, record: CaseRecord): Item {
  const sort = sortOf(record);
  const shard = record.id % CASE_SHARDS;
  return {
    ...inIndex('gsi12', keys.casesByStore(tenantId, record.storeId), sort),
    ...inIndex('gsi13', keys.casesByShard(tenantId, shard), sort),
    ...inIndex('gsi14', record.owner === null ? keys.casesUnowned(tenantId, shard) : keys.casesByOwner(tenantId, record.owner), sort),
    // The analytics export's day of cases: by the month it opened (its instant never changes), in the same shards; keys
    // only, so that the case's changes never rewrite it.
    ...inIndex('gsi15', keys.casesByMonth(tenantId, record.openedAt.slice(0, 7), shard), keys.evaluationSort(record.openedAt, record.id)),
  };
}

/**
 * The case's attributes as stored: its owner as `owners`, a list of none or one (the attribute the indexes project
 * from before a case had one owner: shared/table.ts).
 */
function storedOf({ owner, ...rest }: CaseRecord): Item {
  return { ...rest, owners: owner === null ? [] : [owner] };
}

const StoredOwners = v.optional(v.array(v.string()), []);

/** A case read back: a case stored with every user in scope as its owners reads as its one person's, or unassigned. */
const caseOf = (item: Item): CaseRecord => v.parse(CaseRecord, { ...item, owner: ownerOfStored(v.parse(StoredOwners, item.owners)) });

const counters = (tenantId: number, record: CaseRecord, deltas: CounterDelta[]) =>
  // The case's id is its transaction's: its counters fall in the shards its transaction's do.
  deltas.length ? counterUpdates(tenantId, { journeyId: record.journeyId, deltas }, record.id) : [];

/** A case's item: its key, the case, its index entries. */
export const caseItem = (tenantId: number, record: CaseRecord): Item => ({
  ...keys.case(tenantId, record.id),
  [TABLE.entityAttribute]: ENTITY,
  ...storedOf(record),
  ...indexEntries(tenantId, record),
});

/** How often opening a case tries again when another case took the number it read meanwhile. */
export const NUMBER_ATTEMPTS = 30;

/**
 * Opens a case with the tenant's next short number: the counter is read, then the case is put (if absent) and the
 * counter raised from the value read, in one transaction; a transaction that lost the counter to another case's tries
 * again with the new value. Numbers are consecutive and never given twice; a case that exists takes none.
 */
async function open(tenantId: number, record: CaseRecord, deltas: CounterDelta[]): Promise<CaseRecord | 'exists'> {
  const { client, tableName } = db();
  const counterKey = keys.caseNumber(tenantId);
  const updates = counters(tenantId, record, deltas);
  for (let attempt = 1; ; attempt++) {
    const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: counterKey, ConsistentRead: true }));
    const last = typeof Item?.last === 'number' ? Item.last : 0;
    const stored = { ...record, number: last + 1 };
    const put = { TableName: tableName, Item: caseItem(tenantId, stored), ConditionExpression: 'attribute_not_exists(pk)' };
    const byNumber = { TableName: tableName, Item: { ...keys.caseByNumber(tenantId, stored.number), id: record.id } };
    const raise = {
      TableName: tableName,
      Key: counterKey,
      UpdateExpression: 'SET #last = :next',
      ConditionExpression: last === 0 ? 'attribute_not_exists(#last)' : '#last = :last',
      ExpressionAttributeNames: { '#last': 'last' },
      ExpressionAttributeValues: { ':next': last + 1, ...(last === 0 ? {} : { ':last': last }) },
    };
    try {
      await client.send(new TransactWriteCommand({ TransactItems: [{ Put: put }, { Update: raise }, { Put: byNumber }, ...updates] }));
      return stored;
    } catch (error) {
      if (cancelledByCondition(error, 0)) return 'exists';
      if (attempt >= NUMBER_ATTEMPTS || !(cancelledByCondition(error, 1) || conflicted(error))) throw error;
      // Another case took the number (or holds the counter in its transaction): read it again after a short wait.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * Math.min(attempt, 5)));
    }
  }
}

/** A transaction cancelled because another held one of its items. */
const conflicted = (error: unknown) =>
  error instanceof Error &&
  error.name === 'TransactionCanceledException' &&
  ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).some((r) => r.Code === 'TransactionConflict');

async function find(tenantId: number, id: number): Promise<CaseRecord | undefined> {
  const { client, tableName } = db();
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.case(tenantId, id), ConsistentRead: true }));
  return Item ? caseOf(Item) : undefined;
}

/** The id of the tenant's case of this short number; undefined for none. */
async function idOfNumber(tenantId: number, number: number): Promise<number | undefined> {
  const { client, tableName } = db();
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.caseByNumber(tenantId, number) }));
  return typeof Item?.id === 'number' ? Item.id : undefined;
}

async function replace(tenantId: number, next: CaseRecord, deltas: CounterDelta[]): Promise<boolean> {
  const { tableName } = db();
  const set: Item = { ...storedOf(next), ...indexEntries(tenantId, next) };
  const names: Record<string, string> = { '#version': 'version' };
  const values: Item = { ':expected': next.version - 1 };
  const assignments = Object.entries(set)
    .filter(([name]) => !NOT_REPLACED.has(name))
    .map(([name, value], i) => {
      names[`#a${i}`] = name;
      values[`:a${i}`] = value;
      return `#a${i} = :a${i}`;
    });
  return updateCounting(
    {
      TableName: tableName,
      Key: keys.case(tenantId, next.id),
      UpdateExpression: `SET ${assignments.join(', ')}`,
      ConditionExpression: '#version = :expected',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
    // The case's day of the analytics export is written again by the next run (a case changes after its day ended).
    [...counters(tenantId, next, deltas), dirtyMark(tenantId, { instant: next.openedAt, recordId: next.id })],
  );
}

/**
 * A claim on an alert: its `alertedAt` set to `at` unless another claim holds it (unset or null is free); false when
 * one does. The case's own claim needs the case to exist; a WhatsApp claim is an item of its own beside the case.
 */
const claim = (key: Item, at: string, caseExists = false) =>
  conditionHeld(
    db().client.send(
      new UpdateCommand({
        TableName: db().tableName,
        Key: key,
        UpdateExpression: 'SET #at = :at',
        ConditionExpression: `${caseExists ? 'attribute_exists(pk) AND ' : ''}(attribute_not_exists(#at) OR attribute_type(#at, :null))`,
        ExpressionAttributeNames: { '#at': 'alertedAt' },
        ExpressionAttributeValues: { ':at': at, ':null': 'NULL' },
      }),
    ),
  );

/** Frees a claim this sender holds (its `at`), so that the message's retry may claim it again; another's stays. */
const release = async (key: Item, at: string): Promise<void> => {
  await conditionHeld(
    db().client.send(
      new UpdateCommand({
        TableName: db().tableName,
        Key: key,
        UpdateExpression: 'SET #at = :none',
        ConditionExpression: '#at = :at',
        ExpressionAttributeNames: { '#at': 'alertedAt' },
        ExpressionAttributeValues: { ':at': at, ':none': null },
      }),
    ),
  );
};

const claimAlert = (tenantId: number, id: number, at: string) => claim(keys.case(tenantId, id), at, true);
const releaseAlert = (tenantId: number, id: number, at: string) => release(keys.case(tenantId, id), at);
/** The claim of one manager's WhatsApp alert: an item of its own beside the case (a change never undoes it). */
const claimWhatsAppAlert = (tenantId: number, id: number, { user, at }: WhatsAppClaim) =>
  claim(keys.caseWhatsAppAlert(tenantId, id, user), at);
const releaseWhatsAppAlert = (tenantId: number, id: number, { user, at }: WhatsAppClaim) =>
  release(keys.caseWhatsAppAlert(tenantId, id, user), at);

interface Source {
  index: IndexName;
  partition: string;
}

const shards = (partition: (shard: number) => string, index: IndexName): Source[] =>
  Array.from({ length: CASE_SHARDS }, (_, shard) => ({ index, partition: partition(shard) }));

/** Where a selection's cases are: by owner (a person's partition, the unassigned shards), by store, or the tenant's shards. */
const sourcesOf = ({ tenantId, stores, owner }: CaseSelection): Source[] =>
  owner !== undefined
    ? owner === null
      ? shards((shard) => keys.casesUnowned(tenantId, shard), 'gsi14')
      : [{ index: 'gsi14', partition: keys.casesByOwner(tenantId, owner) }]
    : stores && stores.length <= MAX_STORE_PARTITIONS
      ? stores.map((store) => ({ index: 'gsi12', partition: keys.casesByStore(tenantId, store) }))
      : shards((shard) => keys.casesByShard(tenantId, shard), 'gsi13');

/** The filter of a selection beyond its key condition: stores read from shards or owners' partitions, the days a case opened. */
function filterOf(selection: CaseSelection): { expression?: string; names: Record<string, string>; values: Item } {
  const names: Record<string, string> = {};
  const values: Item = {};
  const parts: string[] = [];
  if (selection.stores && (selection.owner !== undefined || selection.stores.length > MAX_STORE_PARTITIONS)) {
    names['#store'] = 'storeId';
    // IN takes at most 100 operands.
    const chunks = Array.from({ length: Math.ceil(selection.stores.length / 100) }, (_, c) =>
      selection.stores!.slice(c * 100, c * 100 + 100),
    );
    const terms = chunks.map(
      (chunk, c) => `#store IN (${chunk.map((store, i) => ((values[`:s${c}_${i}`] = store), `:s${c}_${i}`)).join(', ')})`,
    );
    parts.push(terms.length > 1 ? `(${terms.join(' OR ')})` : terms[0]!);
  }
  if (selection.from || selection.to) {
    names['#opened'] = 'openedAt';
    values[':from'] = selection.from ?? '';
    values[':to'] = `${selection.to ?? '9999-12-31'}\uffff`;
    parts.push('#opened BETWEEN :from AND :to');
  }
  return { ...(parts.length ? { expression: parts.join(' AND ') } : {}), names, values };
}

const Position = v.strictObject({ after: v.pipe(v.string(), v.maxLength(200)) });

/** One page in the list's order: each partition read once from the cursor, in parallel, and merged. */
async function list(selection: CaseSelection): Promise<{ cases: CaseRecord[]; nextCursor: string | null }> {
  if (selection.stores?.length === 0) return { cases: [], nextCursor: null };
  const prefix = selection.status ? keys.caseSortPrefix(RANK[selection.status], selection.overdue) : '';
  const after = selection.cursor ? v.parse(Position, openCursor(selection.cursor, selection.query)).after : undefined;
  // Sort keys start with a status rank (a digit): without a status, the whole partition lies between 0 and 9.
  const floor = prefix || '0';
  const lower = after !== undefined && after > floor ? after : floor;
  const upper = prefix ? `${prefix}\uffff` : '9';
  const filter = filterOf(selection);
  // Without a status, `overdue` cannot be a key condition (it follows the status in the sort key): a filter then.
  if (!selection.status && selection.overdue !== undefined) {
    filter.names['#overdue'] = 'overdue';
    filter.values[':overdue'] = selection.overdue;
    filter.expression = [filter.expression, '#overdue = :overdue'].filter(Boolean).join(' AND ');
  }
  const read = filter.expression ? Math.max(selection.limit, FILTERED_READ) : selection.limit;
  const { client, tableName } = db();
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
          // One more than a page: the boundary item itself may come back first.
          Limit: read + 1,
        }),
      );
      const items = (out.Items ?? []).map((item) => ({ sort: String(item[sortKey]), item })).filter(({ sort }) => sort !== after);
      return { items, frontier: out.LastEvaluatedKey ? String(out.LastEvaluatedKey[sortKey]) : null };
    }),
  );
  // Every partition has been read up to the lowest frontier: the cases below it are complete, in order.
  const frontier = pages.reduce<string | null>(
    (low, page) => (page.frontier !== null && (low === null || page.frontier < low) ? page.frontier : low),
    null,
  );
  const merged = pages
    .flatMap((page) => page.items)
    .filter(({ sort }) => frontier === null || sort <= frontier)
    .sort((a, b) => (a.sort < b.sort ? -1 : 1));
  const page = merged.slice(0, selection.limit);
  const end =
    page.length === selection.limit && (merged.length > selection.limit || frontier !== null) ? page[page.length - 1]!.sort : frontier;
  const unprojected = await unprojectedOf(
    selection.tenantId,
    page.map(({ item }) => Number(item.id)),
  );
  return {
    // The indexes leave out the notes, the history and the alert's claim (shared/table.ts), the transaction's code and
    // the short number.
    cases: page.map(({ item }) => caseOf({ notes: [], history: [], alertedAt: null, ...item, ...unprojected.get(Number(item.id)) })),
    nextCursor: end === null ? null : sealCursor({ after: end }, selection.query),
  };
}

/**
 * What these cases' items hold that the list's indexes do not: the caller's code of the case's transaction and the
 * case's short number (one BatchGetItem a page of up to 100). Both came after gsi12-14, whose projections cannot change
 * in place on AWS.
 */
async function unprojectedOf(
  tenantId: number,
  ids: number[],
): Promise<Map<number, { transactionCode: string | null; number: number | null }>> {
  if (!ids.length) return new Map();
  const items = await batchGet(
    db(),
    ids.map((id) => keys.case(tenantId, id)),
    { projection: ['id', 'transactionCode', 'number'] },
  );
  return new Map(
    items.map((item) => [
      Number(item.id),
      {
        transactionCode: typeof item.transactionCode === 'string' ? item.transactionCode : null,
        number: typeof item.number === 'number' ? item.number : null,
      },
    ]),
  );
}

/**
 * Puts in gsi14 (by owner) the tenant's cases stored before it existed, with their owner as `caseOf` reads it: one
 * conditional UpdateItem each (absent from gsi14; a case changed meanwhile is in it already). Run once per tenant by the
 * operator (`npm run admin -- index-cases`), never on a request path: it reads every case of the tenant (gsi13's
 * shards). Answers how many it indexed.
 */
export async function indexCases(tenantId: number): Promise<number> {
  const database = db();
  const byOwner = indexAttributes('gsi14');
  let indexed = 0;
  for (const { partition } of shards((shard) => keys.casesByShard(tenantId, shard), 'gsi13'))
    for await (const page of queryPages(database, { index: 'gsi13', partition }))
      for (const item of page) {
        const record = caseOf({ notes: [], history: [], alertedAt: null, ...item });
        const entries = indexEntries(tenantId, record);
        const written = await conditionHeld(
          database.client.send(
            new UpdateCommand({
              TableName: database.tableName,
              Key: keys.case(tenantId, record.id),
              UpdateExpression: 'SET #pk = :pk, #sk = :sk, #owners = :owners',
              ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#pk) AND #version = :version',
              ExpressionAttributeNames: { '#pk': byOwner.partitionKey, '#sk': byOwner.sortKey, '#owners': 'owners', '#version': 'version' },
              ExpressionAttributeValues: {
                ':pk': entries[byOwner.partitionKey],
                ':sk': entries[byOwner.sortKey],
                ':owners': storedOf(record).owners,
                ':version': record.version,
              },
            }),
          ),
        );
        if (written) indexed++;
      }
  return indexed;
}

/**
 * Makes findable by their short number (`GET /public/cases?number=`) the tenant's cases numbered before a case's open
 * wrote its number's entry: reads each case of the tenant (gsi13's shards; the index does not hold the number), then
 * one conditional PutItem of the entry where it is missing. Run by the operator with index-cases, never on a request
 * path; safe to run again. Answers how many entries it wrote.
 */
export async function indexCaseNumbers(tenantId: number): Promise<number> {
  const database = db();
  let written = 0;
  for (const { partition } of shards((shard) => keys.casesByShard(tenantId, shard), 'gsi13'))
    for await (const page of queryPages(database, { index: 'gsi13', partition })) {
      const cases = await batchGet(
        database,
        page.map((item) => keys.case(tenantId, Number(item.id))),
        { projection: ['id', 'number'] },
      );
      for (const item of cases) {
        if (typeof item.number !== 'number') continue;
        const put = database.client.send(
          new PutCommand({
            TableName: database.tableName,
            Item: { ...keys.caseByNumber(tenantId, item.number), id: Number(item.id) },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        if (await conditionHeld(put)) written++;
      }
    }
  return written;
}

/**
 * Removes a customer's data from the cases of these transactions, on their erasure or when their transaction's
 * personal copies expire (`action`, the history's entry): their name, their comment and the managers' notes (a manager
 * writes about the customer: whom they called, at which number), with one conditional UpdateItem per case that still
 * holds them (a transaction without a case, or a case erased already, is left as it is; a case erased before notes
 * were erased is erased again). The case is then `erased`: it takes no note any more.
 */
export async function eraseCaseCopies(
  tenantId: number,
  transactionIds: number[],
  { at, action = 'erased' }: { at: string; action?: 'erased' | 'expired' },
): Promise<void> {
  const { client, tableName } = db();
  await Promise.all(
    transactionIds.map(async (id) => {
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.case(tenantId, id),
            UpdateExpression:
              'SET #name = :null, #comment = :null, #notes = :none, #erased = :true, #version = #version + :one, #history = list_append(#history, :entry)',
            ConditionExpression: 'attribute_exists(pk) AND (#erased = :false OR size(#notes) > :zero)',
            ExpressionAttributeNames: {
              '#name': 'customerName',
              '#comment': 'comment',
              '#notes': 'notes',
              '#erased': 'erased',
              '#version': 'version',
              '#history': 'history',
            },
            ExpressionAttributeValues: {
              ':null': null,
              ':none': [],
              ':true': true,
              ':false': false,
              ':one': 1,
              ':zero': 0,
              ':entry': [{ at, by: 'system', action }],
            },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }),
  );
}

export const caseStore: CaseStore = {
  open,
  find,
  idOfNumber,
  replace,
  claimAlert,
  releaseAlert,
  claimWhatsAppAlert,
  releaseWhatsAppAlert,
  list,
};
