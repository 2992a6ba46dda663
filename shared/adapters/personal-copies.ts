import { keys } from '../keys.js';
import { inIndex } from '../table.js';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, cancelledByCondition, db, isConditionFailure, type Item } from './dynamodb.js';
import { PHRASE_EXAMPLES, phraseCellKeys } from './phrase-cells.js';
import type { TransactItem } from './result-counters.js';

/*
 * What a transaction's item holds of its customer: the customer's name and the survey's contacts, copied when it was
 * registered, and its answer's comment and chatbot respondent. Erasure and retention remove them, readers stop
 * showing them once they expired; this module is the one place that knows which attributes they are.
 */

/**
 * Shards of a day's expiry partition (keys.personalExpiry): a busy day's writes spread over this many. The partitions
 * are the deployment's, every tenant's: with 16, one tenant of 10 million transactions a day took 10.9% of a shard's
 * writes at its peak (a sale's entry, and an answer's move of it, doubled in its transaction; `npm run bench -- scale`),
 * with 64 under 3%. Raising it needs no migration: the sweep reads every shard, the old ones among them.
 */
export const EXPIRY_SHARDS = 64;

/**
 * The attributes that keep a transaction's personal copies for `retentionDays` from `from` (its registration, or an
 * answer): the instant they expire and the entry that lets the expiry sweep find it.
 */
export function retentionAttributes(
  tenantId: number,
  transactionId: number,
  { retentionDays, from }: { retentionDays: number; from: string },
): Item {
  const expiresAt = new Date(Date.parse(from) + retentionDays * 86_400_000).toISOString();
  return {
    retention_days: retentionDays,
    personal_expires_at: expiresAt,
    ...inIndex(
      'gsi9',
      keys.personalExpiry(expiresAt.slice(0, 10), transactionId % EXPIRY_SHARDS),
      keys.personalExpirySort(expiresAt, tenantId, transactionId),
    ),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Whether a transaction's personal copies have expired by `now` (an ISO instant). */
export const personalCopiesExpired = (item: Item, now: string = new Date().toISOString()): boolean =>
  typeof item.personal_expires_at === 'string' && item.personal_expires_at <= now;

/** Whether a transaction can no longer reach its customer: erased, or its personal copies expired or removed. */
export const contactGone = (item: Item, now?: string): boolean =>
  item.erased_at !== undefined || item.personal_expired_at !== undefined || personalCopiesExpired(item, now);

/** A transaction's item as it may be shown: without its personal copies once they expired, before the sweep removes them. */
export function unexpired(item: Item, now?: string): Item {
  if (!personalCopiesExpired(item, now)) return item;
  const { survey_contacts: _contacts, ...rest } = item;
  return {
    ...rest,
    customer_name: null,
    survey_contact: null,
    ...(isObject(item.rating) ? { rating: { ...item.rating, comment: null } } : {}),
    ...(isObject(item.respondent) ? { respondent: { ...item.respondent, name: null, phone: null } } : {}),
    ...(isObject(item.survey) && item.survey.detail !== undefined ? { survey: withoutDetail(item.survey) } : {}),
  };
}

/** The attributes of a comment's analysis that say what the comment said. */
const ANALYSIS_OF_COMMENT = ['language', 'sentiment', 'themes', 'aspects', 'key_phrases'] as const;

const withoutDetail = ({ detail: _detail, ...survey }: Record<string, unknown>) => survey;
const present = (value: unknown) => value !== undefined && value !== null;

/**
 * Whether a transaction's item still holds a personal copy: its customer's name, a survey contact, the answer's
 * comment, the chatbot respondent's name or phone, a provider's words about a failed attempt (which may name the
 * address), and for an erasure the free params. Erasure looks at this, not at its mark: an answer may have landed
 * between the mark and the strip of an earlier pass.
 */
export function holdsPersonalCopies(item: Item, { params }: { params: boolean }): boolean {
  const { rating, respondent, survey } = item;
  return (
    present(item.customer_name) ||
    present(item.survey_contact) ||
    item.survey_contacts !== undefined ||
    (isObject(rating) && present(rating.comment)) ||
    (isObject(item.analysis) && (present(item.analysis.sentiment) || item.analysis.phrases_counted !== undefined)) ||
    (isObject(respondent) && (present(respondent.name) || present(respondent.phone))) ||
    (isObject(survey) && present(survey.detail)) ||
    (params && isObject(item.params) && Object.keys(item.params).length > 0)
  );
}

/**
 * The entries of an analysed answer in the lists by theme and sentiment (shared/adapters/analysis-repository.ts): they
 * say what the comment said, and go with it.
 */
function listingKeys(item: Item): Item[] {
  const analysis = item.analysis;
  if (!isObject(analysis) || !present(analysis.sentiment) || !isObject(analysis.counted)) return [];
  const { themes, sentiment } = analysis.counted as { themes?: unknown; sentiment?: unknown };
  const tenantId = keys.tenantIdOf(String(item.pk));
  const transactionId = keys.transactionIdOf(String(item.pk));
  return [
    ...(Array.isArray(themes) ? themes : []).map((theme) =>
      keys.answerFilterEntry(tenantId, transactionId, { filter: 'theme', value: String(theme) }),
    ),
    ...(typeof sentiment === 'string' ? [keys.answerFilterEntry(tenantId, transactionId, { filter: 'sentiment', value: sentiment })] : []),
  ];
}

/** What an answer's analysis counted in the suggestions (analysis.phrases_counted), as the strip reads it. */
function phrasesCountedOf(item: Item): { day: string; keys: string[]; negative: boolean } | undefined {
  const analysis = item.analysis;
  if (!isObject(analysis) || !isObject(analysis.phrases_counted)) return undefined;
  const { day, phrases, negative } = analysis.phrases_counted as { day?: unknown; phrases?: unknown; negative?: unknown };
  if (typeof day !== 'string' || !Array.isArray(phrases)) return undefined;
  const found = phrases.map((phrase) => (isObject(phrase) ? phrase.key : undefined)).filter((key) => typeof key === 'string');
  return { day, keys: found, negative: negative === true };
}

/**
 * The writes that take back what an answer counted in the suggestions (shared/adapters/analysis-repository.ts), from
 * its cells as read just before: a cell it alone counted is deleted (with the phrase, its language and the example),
 * another loses one of its count and this answer as its example. Each is guarded by the count as read, so that a
 * phrase counted meanwhile is read again rather than left behind.
 */
async function phrasesTakenBack(item: Item): Promise<TransactItem[]> {
  const counted = phrasesCountedOf(item);
  if (!counted?.keys.length) return [];
  const pk = String(item.pk);
  const [tenantId, transactionId] = [keys.tenantIdOf(pk), keys.transactionIdOf(pk)];
  const answer = { storeId: Number(item.store_id), journeyId: Number(item.journey_id) };
  const cells = await batchGet(
    db(),
    counted.keys.flatMap((key) => phraseCellKeys(tenantId, answer, { day: counted.day, phraseKey: key })),
    { consistent: true },
  );
  const { tableName } = db();
  const slot = `example${transactionId % PHRASE_EXAMPLES}`;
  return cells.map((cell): TransactItem => {
    const Key = { pk: cell.pk, sk: cell.sk };
    const count = Number(cell.count ?? 0);
    if (count <= 1) {
      const asRead =
        typeof cell.count === 'number'
          ? { ConditionExpression: '#count = :n', ExpressionAttributeValues: { ':n': cell.count } }
          : { ConditionExpression: 'attribute_not_exists(#count)' };
      return { Delete: { TableName: tableName, Key, ...asRead, ExpressionAttributeNames: { '#count': 'count' } } };
    }
    const example = cell[slot] === transactionId;
    return {
      Update: {
        TableName: tableName,
        Key,
        UpdateExpression: `ADD #count :minus${counted.negative ? ', #negative :minus' : ''}${example ? ' REMOVE #example' : ''}`,
        // Other answers count the phrase meanwhile (a busy store's "atendimento"): the decrement holds whatever they
        // add. Checked: that it leaves a count (the last one deletes the cell, above), and that the example slot it
        // empties is still this answer's.
        ConditionExpression: `#count > :one${example ? ' AND #example = :self' : ''}`,
        ExpressionAttributeNames: {
          '#count': 'count',
          ...(counted.negative ? { '#negative': 'negative' } : {}),
          ...(example ? { '#example': slot } : {}),
        },
        ExpressionAttributeValues: { ':one': 1, ':minus': -1, ...(example ? { ':self': transactionId } : {}) },
      },
    };
  });
}

/** Tries of a strip whose suggestion cells changed between their read and the write (an answer counting the same phrase). */
const CELL_TRIES = 5;

/** How a strip is guarded: erasure's, that the item still holds what was read; retention's, that its copies are still expired. */
export type StripGuard = { asRead: true } | { expiredBy: string };

/**
 * Removes a transaction's personal copies (and its expiry entry) with one UpdateItem, setting `marks` beside them.
 * `item` is the stored item, read just before: nested paths are set only where they exist. Guarded `asRead`, only
 * while every attribute it overwrites still holds what `item` holds (an answer or an attempt's failure since would
 * otherwise survive); guarded `expiredBy`, only while the copies are still expired by then (an answer since may
 * have renewed them). False when the guard failed.
 */
export async function stripPersonalCopies(item: Item, marks: Item, guard: StripGuard): Promise<boolean> {
  const names: Record<string, string> = {};
  const values: Item = { ':null': null };
  const sets = ['customer_name = :null', 'survey_contact = :null'];
  const removes = ['survey_contacts', 'personal_expires_at', 'gsi9pk', 'gsi9sk'];
  if (isObject(item.rating)) {
    sets.push('rating.#comment = :null');
    names['#comment'] = 'comment';
  }
  if (isObject(item.respondent)) {
    sets.push('respondent.#name = :null', 'respondent.#phone = :null');
    Object.assign(names, { '#name': 'name', '#phone': 'phone' });
  }
  // The comment's analysis says what the comment said (its language, sentiment, themes, key phrases): it goes with it;
  // what it counted in the themes stays, as the counts do (docs/themes.md). What it counted in the suggestions is the
  // comment's own words: taken back, with the record of it.
  if (isObject(item.analysis)) {
    const said = [...ANALYSIS_OF_COMMENT, ...(item.analysis.phrases_counted !== undefined ? ['phrases_counted'] : [])];
    removes.push(...said.map((name) => `#analysis.#${name}`));
    Object.assign(names, { '#analysis': 'analysis' }, Object.fromEntries(said.map((name) => [`#${name}`, name])));
  }
  const detail = () => Object.assign(names, { '#survey': 'survey', '#detail': 'detail' });
  if (isObject(item.survey)) {
    removes.push('#survey.#detail');
    detail();
  }
  Object.entries(marks).forEach(([name, value], i) => {
    sets.push(`#m${i} = :m${i}`);
    names[`#m${i}`] = name;
    values[`:m${i}`] = value;
  });
  const conditions: string[] = [];
  if ('expiredBy' in guard) {
    conditions.push('personal_expires_at <= :now');
    values[':now'] = guard.expiredBy;
  } else {
    // Each attribute the update overwrites, as read: absent, null, or equal (DynamoDB compares maps whole).
    const paths: [string, unknown][] = [
      ...(['customer_name', 'survey_contact', 'survey_contacts', 'rating', 'respondent', 'analysis', ...Object.keys(marks)] as const).map(
        (name): [string, unknown] => [name, item[name]],
      ),
      ['#survey.#detail', isObject(item.survey) ? item.survey.detail : undefined],
    ];
    detail();
    paths.forEach(([path, value], i) => {
      const at = path.startsWith('#') ? path : `#c${i}`;
      if (at !== path) names[at] = path;
      if (value === undefined) conditions.push(`attribute_not_exists(${at})`);
      else if (value === null) conditions.push(`attribute_type(${at}, :nullType)`);
      else {
        conditions.push(`${at} = :c${i}`);
        values[`:c${i}`] = value;
      }
    });
    if (conditions.some((c) => c.includes(':nullType'))) values[':nullType'] = 'NULL';
  }
  const { tableName } = db();
  const strip = {
    TableName: tableName,
    Key: { pk: item.pk, sk: item.sk },
    UpdateExpression: `SET ${sets.join(', ')} REMOVE ${removes.join(', ')}`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
  const deletes = listingKeys(item).map((key): TransactItem => ({ Delete: { TableName: tableName, Key: key } }));
  for (let tries = 1; ; tries++) {
    const writes = [...deletes, ...(await phrasesTakenBack(item))];
    try {
      if (writes.length === 0) await db().client.send(new UpdateCommand(strip));
      else await db().client.send(new TransactWriteCommand({ TransactItems: [{ Update: strip }, ...writes] }));
      return true;
    } catch (error) {
      if (isConditionFailure(error) || cancelledByCondition(error, 0)) return false;
      // A suggestion cell moved since it was read: read it again.
      const cellMoved = writes.some((_, i) => cancelledByCondition(error, i + 1));
      if (!cellMoved || tries === CELL_TRIES) throw error;
    }
  }
}
