import { randomInt, randomUUID } from 'node:crypto';
import { isLocale } from '../i18n/messages.js';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { FieldProblem } from '../errors.js';
import { keys } from '../keys.js';
import { inIndex, TABLE } from '../table.js';
import { MAX_ID_PROBES, transactionIdFor } from '../transactions/request-key.js';
import { RecoverySurvey, Transaction, type AnswerOrigin, type TransactionRecord } from '../transaction-record.js';
import { RATING_SOURCES, type SourceName } from '../channels.js';
import type { RequestRecord, SurveySlot, TransactionRepository } from '../transactions/ports.js';
import type { Tally } from '../results/tally.js';
import { cancelledByCondition, db, isConditionFailure, type Item } from './dynamodb.js';
import { counterUpdates, type TransactItem } from './result-counters.js';
import { contactGone, retentionAttributes, unexpired } from './personal-copies.js';

/** The answer indexes' shards (keys.answersByShard): a tenant's peak of answers spread over this many partitions. */
export const ANSWER_SHARDS = 8;
/**
 * The evaluation index's shards a month (keys.evaluationsByMonth): an evaluation's entry is a whole item (1.3 KB, 2
 * units, doubled in the answer's transaction), so at 10 million transactions a day, with about 250 answers a second
 * late in the peak hour, one month partition would take a whole partition's writes (`npm run bench -- scale`); 16
 * keep each near 6%, and a page of the evaluation list reads 17 partitions.
 */
export const EVALUATION_SHARDS = 16;

/** Every gsi2 partition of a month's evaluations: the one from before the shards (read until its items age out), then the shards. */
export const evaluationPartitions = (tenantId: number, month: string): string[] => [
  keys.evaluationsByMonth(tenantId, month),
  ...Array.from({ length: EVALUATION_SHARDS }, (_, shard) => keys.evaluationsByMonth(tenantId, month, shard)),
];

/**
 * Evaluations live on their transaction's item: the rating, its items and where the answer came from. These index
 * attributes make them listable by date (gsi2, EVALUATION_SHARDS partitions a month, newest first), findable by the transaction's
 * external id (gsi4), and listed as answers by store (gsi10) and across the tenant (gsi11). The answer indexes are
 * projections of the item, so a redelivered answer writes the same entries, a correction updates them, and erasure
 * and retention, which strip the item, strip them too.
 */
export function evaluationIndex(
  tenantId: number,
  transaction: { id: number; transaction_id: string | null; store_id: number },
  answeredAt: string,
): Item {
  return {
    answered_at: answeredAt,
    ...inIndex(
      'gsi2',
      keys.evaluationsByMonth(tenantId, answeredAt.slice(0, 7), transaction.id % EVALUATION_SHARDS),
      keys.evaluationSort(answeredAt, transaction.id),
    ),
    ...(transaction.transaction_id ? inIndex('gsi4', keys.evaluationByExternalId(tenantId, transaction.transaction_id), answeredAt) : {}),
    ...answerIndex(tenantId, transaction, answeredAt),
  };
}

/** The answer indexes' entries of an answered transaction (by store, and in the tenant's shards). */
export function answerIndex(tenantId: number, transaction: { id: number; store_id: number }, answeredAt: string): Item {
  const sort = keys.evaluationSort(answeredAt, transaction.id);
  return {
    ...inIndex('gsi10', keys.answersByStore(tenantId, transaction.store_id), sort),
    ...inIndex('gsi11', keys.answersByShard(tenantId, transaction.id % ANSWER_SHARDS), sort),
  };
}

/**
 * A transaction's entry in the analytics export's list of a day's surveys (gsi15, keys only, by the month it was
 * registered, in EVALUATION_SHARDS shards): written with the transaction, never moved (its registration instant does
 * not change), and never rewritten by the transaction's changes.
 */
export const surveyIndex = (tenantId: number, transaction: { id: number; created_at: string }): Item =>
  inIndex(
    'gsi15',
    keys.surveysByMonth(tenantId, transaction.created_at.slice(0, 7), transaction.id % EVALUATION_SHARDS),
    keys.evaluationSort(transaction.created_at, transaction.id),
  );

/** How long the outcome of a rejected request stays readable. */
export const REJECTION_TTL_DAYS = 30;

const Contacts = v.object({ phone: v.optional(v.string()), email: v.optional(v.string()) });
const Problems = v.array(v.object({ path: v.string(), message: v.string() }));
const Outcome = v.object({ status: v.picklist(['rejected', 'failed']), errors: Problems, received_at: v.string() });

/**
 * A transaction's item: the resource's fields as they are, beside what only the service reads (journey slug,
 * customer name, the survey's contacts and waits, warnings) and, once rated, the answer's origin with the evaluation indexes.
 */
export function toItem(
  tenantId: number,
  {
    transaction,
    journeySlug,
    customerName,
    surveyContact,
    surveyContacts,
    attemptWaits,
    warnings,
    answer,
    retentionDays,
    locale,
  }: TransactionRecord,
  /** The key of the consumer batch's list that names it (listRegistrations): then it needs no entry of its own in gsi15. */
  listedIn?: string,
): Item {
  // Later attempts need an address only if one of them uses its kind of channel.
  const later = transaction.attempts.slice(1).map((attempt) => (attempt.channel === 'email' ? 'email' : 'phone'));
  const contacts = Object.fromEntries(later.filter((kind) => surveyContacts[kind]).map((kind) => [kind, surveyContacts[kind]]));
  return {
    [TABLE.entityAttribute]: 'TRANSACTION',
    status: 'created',
    journey_slug: journeySlug,
    customer_name: customerName,
    ...(locale ? { survey_locale: locale } : {}),
    survey_contact: surveyContact,
    ...(Object.keys(contacts).length ? { survey_contacts: contacts } : {}),
    ...(attemptWaits.length > 1 ? { attempt_waits: attemptWaits } : {}),
    ...(warnings.length ? { warnings } : {}),
    ...(answer ? { ...answerAttributes(answer), ...evaluationIndex(tenantId, transaction, answer.answeredAt) } : {}),
    ...(listedIn ? { survey_list: listedIn } : surveyIndex(tenantId, transaction)),
    ...inIndex(
      'gsi8',
      keys.customerTransactions(tenantId, transaction.customer_id),
      keys.customerTransactionSort(transaction.created_at, transaction.id),
    ),
    ...(retentionDays ? retentionAttributes(tenantId, transaction.id, { retentionDays, from: transaction.created_at }) : {}),
    ...transaction,
  };
}

/** Where an answer came from, as the item keeps it. */
export const answerAttributes = (answer: AnswerOrigin): Item => ({
  eval_source: answer.source,
  eval_src: answer.src,
  ...(answer.version !== undefined ? { answer_version: answer.version } : {}),
});

/** The record of a created transaction's item, without its personal copies once they expired. */
export function fromItem(stored: Item): TransactionRecord {
  const item = unexpired(stored);
  const source = (item.eval_source as SourceName | undefined) ?? 'api';
  return {
    transaction: v.parse(Transaction, item),
    journeySlug: String(item.journey_slug),
    customerName: typeof item.customer_name === 'string' ? item.customer_name : null,
    ...(isLocale(item.survey_locale) ? { locale: item.survey_locale } : {}),
    surveyContact: typeof item.survey_contact === 'string' ? item.survey_contact : null,
    surveyContacts: { phone: null, email: null, ...v.parse(Contacts, item.survey_contacts ?? {}) },
    attemptWaits: v.parse(v.optional(v.array(v.number()), []), item.attempt_waits),
    warnings: v.parse(v.optional(Problems, []), item.warnings),
    answer:
      typeof item.answered_at === 'string'
        ? {
            source,
            src: Number(item.eval_src ?? RATING_SOURCES[source]),
            answeredAt: item.answered_at,
            ...(typeof item.answer_version === 'number' ? { version: item.answer_version } : {}),
          }
        : null,
    retentionDays: typeof item.retention_days === 'number' ? item.retention_days : null,
    contactGone: contactGone(stored),
    erased: stored.erased_at !== undefined,
    ...(item.recovery ? { recovery: v.parse(RecoverySurvey, item.recovery) } : {}),
  };
}

/** The created transaction, or the rejection or failure, an item under a request key holds. */
export function toRequestRecord(item: Item): RequestRecord {
  if (item.status === 'rejected' || item.status === 'failed') {
    const outcome = v.parse(Outcome, item);
    return { status: outcome.status, errors: outcome.errors, receivedAt: outcome.received_at };
  }
  return { status: 'created', record: fromItem(item) };
}

/** The item a request key holds: its created transaction or its rejection; undefined while none is stored. */
export async function findByRequestKey(tenantId: number, requestKey: string): Promise<RequestRecord | undefined> {
  for (let probe = 0; probe < MAX_ID_PROBES; probe++) {
    const item = await getItem(tenantId, transactionIdFor(requestKey, probe));
    if (!item) return undefined;
    if (item.request_key === requestKey) return toRequestRecord(item);
  }
  return undefined;
}

export async function findById(tenantId: number, id: number): Promise<TransactionRecord | undefined> {
  const item = await getItem(tenantId, id);
  return item && item.status === 'created' ? fromItem(item) : undefined;
}

async function getItem(tenantId: number, id: number): Promise<Item | undefined> {
  const { client, tableName } = db();
  return (await client.send(new GetCommand({ TableName: tableName, Key: keys.transaction(tenantId, id) }))).Item;
}

/**
 * Writes the item of a request key with one conditional PutItem at the id the key hashes to: allowed when nothing,
 * or only this key's rejection or failure, is stored there. Returns the record now stored under the key: `written` is false
 * when a created transaction was already there (a duplicate request), which is then returned unchanged.
 */
async function putUnderKey(
  tenantId: number,
  {
    requestKey,
    build,
    counters = () => [],
  }: { requestKey: string; build: (id: number, probe: number) => Item; counters?: (item: Item) => TransactItem[] },
): Promise<{ written: boolean; item: Item }> {
  const { client, tableName } = db();
  for (let probe = 0; probe < MAX_ID_PROBES; probe++) {
    const id = transactionIdFor(requestKey, probe);
    const item = { ...keys.transaction(tenantId, id), ...build(id, probe), request_key: requestKey };
    const put = {
      TableName: tableName,
      Item: item,
      ConditionExpression: 'attribute_not_exists(pk) OR (#status IN (:rejected, :failed) AND request_key = :key)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':rejected': 'rejected', ':failed': 'failed', ':key': requestKey },
    };
    const moved = counters(item);
    try {
      // With the result counters it moves, the transaction is written with them or not at all.
      if (moved.length) await client.send(new TransactWriteCommand({ TransactItems: [{ Put: put }, ...moved] }));
      else await client.send(new PutCommand(put));
      return { written: true, item };
    } catch (error) {
      if (!isConditionFailure(error) && !cancelledByCondition(error, 0)) throw error;
    }
    const stored = await getItem(tenantId, id);
    if (stored?.request_key === requestKey) return { written: false, item: stored };
    // Another key hashes to this id: probe the next one.
  }
  throw new Error(`No free transaction id for request key ${requestKey}.`);
}

/**
 * Stores a created transaction. `build` gets the transaction's id. When the key already holds a created
 * transaction, nothing is written and that one is returned (`created: false`).
 */
export async function putCreated(
  tenantId: number,
  {
    requestKey,
    build,
    tally,
    listedIn,
  }: {
    requestKey: string;
    build: (id: number) => TransactionRecord;
    tally?: (record: TransactionRecord) => Tally | undefined;
    listedIn?: string;
  },
): Promise<{ created: boolean; record: TransactionRecord }> {
  const records = new Map<number, TransactionRecord>();
  const { written, item } = await putUnderKey(tenantId, {
    requestKey,
    build: (id, probe) => {
      const record = build(id);
      records.set(id, record);
      // The batch's list names the id of the first probe only: at another, the transaction is listed by its own entry.
      return toItem(tenantId, record, probe === 0 ? listedIn : undefined);
    },
    counters: (item) => {
      const moved = tally?.(records.get(Number(item.id))!);
      return moved ? counterUpdates(tenantId, moved, Number(item.id)) : [];
    },
  });
  const stored = toRequestRecord(item);
  if (stored.status !== 'created') throw new Error('A rejection was stored over a created transaction.');
  return { created: written, record: stored.record };
}

/**
 * Records why a request was rejected (or that the queue gave up on it), readable for REJECTION_TTL_DAYS; never over
 * a created transaction. A failed request that a redrive then registers is overwritten by its transaction.
 */
export async function putOutcome(
  tenantId: number,
  requestKey: string,
  { status, errors, receivedAt }: { status: 'rejected' | 'failed'; errors: FieldProblem[]; receivedAt: string },
): Promise<void> {
  const expiresAt = Math.floor(Date.now() / 1000) + REJECTION_TTL_DAYS * 86_400;
  const entity = status === 'rejected' ? 'TRANSACTION_REJECTION' : 'TRANSACTION_FAILURE';
  await putUnderKey(tenantId, {
    requestKey,
    build: () => ({
      [TABLE.entityAttribute]: entity,
      status,
      errors,
      received_at: receivedAt,
      [TABLE.ttlAttribute]: expiresAt,
    }),
  });
}

/**
 * Takes the customer's survey slot on a journey: succeeds when the customer was not surveyed on it within the
 * window, and records now. One conditional write, so two transactions at once cannot both survey.
 */
export async function claimSurveySlot(tenantId: number, { customerId, journeyId, windowDays, now }: SurveySlot): Promise<boolean> {
  const { client, tableName } = db();
  const cutoff = new Date(now.getTime() - windowDays * 86_400_000).toISOString();
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.surveyed(tenantId, customerId, journeyId),
        UpdateExpression: 'SET surveyed_at = :now, #entity = :entity, #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(surveyed_at) OR surveyed_at < :cutoff',
        ExpressionAttributeNames: { '#entity': TABLE.entityAttribute, '#ttl': TABLE.ttlAttribute },
        ExpressionAttributeValues: {
          ':now': now.toISOString(),
          ':cutoff': cutoff,
          ':entity': 'SURVEYED',
          ':ttl': Math.floor(now.getTime() / 1000) + windowDays * 86_400,
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Lists the transactions a consumer batch is about to register, for the analytics export's day of surveys: one item
 * per batch and tenant (under 1 KB for a batch of 10: 1 write unit, a tenth of one a transaction) instead of an
 * entry in gsi15 for each transaction (1 write unit each). It is written before them, naming the id each request key
 * takes at its first probe, at the instant `at` they are registered at, so that no transaction is registered unlisted;
 * the export reads a listed id only where the transaction's item names this list (`survey_list`) and was created at
 * `at` (a listed request that was refused, or was registered by another batch, is not this list's). Answers the list's
 * key, which the transactions' items name.
 */
export async function listRegistrations(tenantId: number, at: string, requestKeys: string[]): Promise<string> {
  const { client, tableName } = db();
  const ids = [...new Set(requestKeys.map((key) => transactionIdFor(key, 0)))];
  const list = `${at}#L${randomUUID()}`;
  const shard = randomInt(EVALUATION_SHARDS);
  await client.send(
    new PutCommand({
      TableName: tableName,
      Item: { pk: keys.surveysByMonth(tenantId, at.slice(0, 7), shard), sk: list, [TABLE.entityAttribute]: 'SURVEY_LIST', ids },
    }),
  );
  return list;
}

export const transactionRepository: TransactionRepository = {
  findByRequestKey,
  findById,
  putCreated,
  putOutcome,
  claimSurveySlot,
  listRegistrations,
};
