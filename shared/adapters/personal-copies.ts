import { keys } from '../keys.js';
import { inIndex } from '../table.js';
import { db, type Item } from './dynamodb.js';
import { updateCounting } from './result-counters.js';

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
export function retentionAttributes(tenantId: number, transactionId: number, retentionDays: number, from: string): Item {
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
    (isObject(item.analysis) && present(item.analysis.sentiment)) ||
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
    ...(Array.isArray(themes) ? themes : []).map((theme) => keys.answerFilterEntry(tenantId, transactionId, 'theme', String(theme))),
    ...(typeof sentiment === 'string' ? [keys.answerFilterEntry(tenantId, transactionId, 'sentiment', sentiment)] : []),
  ];
}

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
  // what it counted stays, as the counts do (docs/themes.md).
  if (isObject(item.analysis)) {
    removes.push(...ANALYSIS_OF_COMMENT.map((name) => `#analysis.#${name}`));
    Object.assign(names, { '#analysis': 'analysis' }, Object.fromEntries(ANALYSIS_OF_COMMENT.map((name) => [`#${name}`, name])));
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
  const deletes = listingKeys(item).map((key) => ({ Delete: { TableName: tableName, Key: key } }));
  return updateCounting(strip, deletes);
}
