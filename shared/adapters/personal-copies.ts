import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../keys.js';
import { inIndex } from '../table.js';
import { db, isConditionFailure, type Item } from './dynamodb.js';

/*
 * What a transaction's item holds of its customer: the customer's name and the survey's contacts, copied when it was
 * registered, and its answer's comment and chatbot respondent. Erasure and retention remove them, readers stop
 * showing them once they expired; this module is the one place that knows which attributes they are.
 */

/** Shards of a day's expiry partition (keys.personalExpiry): a busy day's writes spread over this many. */
export const EXPIRY_SHARDS = 16;

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
  };
}

/**
 * Removes a transaction's personal copies (and its expiry entry) with one UpdateItem, setting `marks` beside them.
 * `item` is the stored item, read just before: nested paths are set only where they exist. With `expiredBy`, only
 * while the copies are still expired by then (an answer since may have renewed them): false when they are not.
 */
export async function stripPersonalCopies(item: Item, marks: Item, expiredBy?: string): Promise<boolean> {
  const names: Record<string, string> = {};
  const values: Item = { ':null': null };
  const sets = ['customer_name = :null', 'survey_contact = :null'];
  if (isObject(item.rating)) {
    sets.push('rating.#comment = :null');
    names['#comment'] = 'comment';
  }
  if (isObject(item.respondent)) {
    sets.push('respondent.#name = :null', 'respondent.#phone = :null');
    Object.assign(names, { '#name': 'name', '#phone': 'phone' });
  }
  Object.entries(marks).forEach(([name, value], i) => {
    sets.push(`#m${i} = :m${i}`);
    names[`#m${i}`] = name;
    values[`:m${i}`] = value;
  });
  if (expiredBy) values[':now'] = expiredBy;
  const { client, tableName } = db();
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: `SET ${sets.join(', ')} REMOVE survey_contacts, personal_expires_at, gsi9pk, gsi9sk`,
        ...(expiredBy ? { ConditionExpression: 'personal_expires_at <= :now' } : {}),
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if (expiredBy && isConditionFailure(error)) return false;
    throw error;
  }
}
