import { isLocale } from '../i18n/messages.js';
/**
 * Survey attempts in the table: the claim and the result of each attempt (the survey map of its transaction), who
 * can still be reached (opt-outs, suppressed addresses), and store names. DynamoDB only: the survey pages use this
 * without loading the providers' SDKs.
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { keys } from '../keys.js';
import { CHANNELS } from '../channels.js';
import { TABLE } from '../table.js';
import type { Channel } from '../surveys/dispatch.js';
import type { AttemptKey, AttemptStore, Claim, ClaimedAttempt, Reachability, StoreNames } from '../surveys/ports.js';
import type { AddressSuppression } from '../surveys/feedback.js';
import { dirtyMark } from './analytics-dirty.js';
import { counterUpdates, updateCounting, type TransactItem } from './result-counters.js';
import { batchGet, db, isConditionFailure, type Item } from './dynamodb.js';
import { contactGone } from './personal-copies.js';

// ---- Attempts: the survey map of the transaction item, and its list of attempts ----------------------------------

/**
 * The survey map holds the current attempt (its status, channel and claim); `attempts` holds every attempt's plan
 * and outcome, by position (attempt n at index n - 1). Transactions registered before attempts existed have no
 * `attempts`: their one attempt lives in the survey map alone.
 */
const names = {
  '#status': 'status',
  '#survey': 'survey',
  '#sstatus': 'status',
  '#attempt': 'attempt_id',
  '#claimed': 'claimed_until',
};

/** The expression path of attempt n's entry in the list. */
const entry = (attemptId: number) => `#attempts[${attemptId - 1}]`;

export const attemptStore: AttemptStore = {
  async claim(key, { now, leaseSeconds, channel }): Promise<Claim> {
    const { client, tableName } = db();
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const current =
      '(#survey.#attempt = :attempt AND #survey.#sstatus = :scheduled AND (attribute_not_exists(#survey.#claimed) OR #survey.#claimed < :now))';
    // Attempt n > 1 takes over once an earlier attempt was sent or failed and the sender scheduled this one.
    const later = `#survey.#attempt < :attempt AND #survey.#sstatus IN (:sent, :failed) AND ${entry(key.attemptId)}.#astatus = :scheduled`;
    const moving = key.attemptId > 1;
    try {
      const { Attributes } = await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.transaction(key.tenantId, key.transactionId),
          UpdateExpression: moving
            ? 'SET #survey.#claimed = :until, #survey.#attempt = :attempt, #survey.#sstatus = :scheduled, #survey.#channel = :channel, ' +
              '#survey.#reason = :null, #contact = #contacts.#kind REMOVE #survey.#sent_at, #survey.#message_id, #survey.#detail'
            : 'SET #survey.#claimed = :until',
          // DynamoDB refuses redundant parentheses; AND binds tighter than OR, so only the OR is grouped.
          // An erased customer's transaction sends nothing more: its contacts are gone with it; nor does one whose
          // personal copies expired under the tenant's retention (or were removed by its sweep).
          ConditionExpression:
            `#status = :created AND attribute_not_exists(#erased) AND attribute_not_exists(#stripped) AND ` +
            `(attribute_not_exists(#expires) OR #expires > :nowIso) AND ${moving ? `(${current} OR ${later})` : current}`,
          ExpressionAttributeNames: {
            ...names,
            '#erased': 'erased_at',
            '#stripped': 'personal_expired_at',
            '#expires': 'personal_expires_at',
            ...(moving
              ? {
                  '#attempts': 'attempts',
                  '#astatus': 'status',
                  '#channel': 'channel',
                  '#reason': 'reason',
                  '#contact': 'survey_contact',
                  '#contacts': 'survey_contacts',
                  '#kind': channel === 'email' ? 'email' : 'phone',
                  '#sent_at': 'sent_at',
                  '#message_id': 'message_id',
                  '#detail': 'detail',
                }
              : {}),
          },
          ExpressionAttributeValues: {
            ':until': nowSeconds + leaseSeconds,
            ':now': nowSeconds,
            ':nowIso': now.toISOString(),
            ':created': 'created',
            ':attempt': key.attemptId,
            ':scheduled': 'scheduled',
            ...(moving ? { ':sent': 'sent', ':failed': 'failed', ':channel': channel, ':null': null } : {}),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return claimed(key, Attributes!);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const { Item: item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.transaction(key.tenantId, key.transactionId), ConsistentRead: true }),
    );
    if (!item || item.status !== 'created' || contactGone(item, now.toISOString())) return { status: 'missing' };
    const survey = item.survey as { status?: string; attempt_id?: number };
    const planned = (item.attempts as { status?: string }[] | undefined)?.[key.attemptId - 1];
    if (key.attemptId > 1 && !planned) return { status: 'missing' };
    if (survey.status === 'answered' || (survey.attempt_id ?? 0) > key.attemptId) return { status: 'done' };
    if (survey.attempt_id === key.attemptId) return survey.status === 'scheduled' ? { status: 'busy' } : { status: 'done' };
    // An earlier attempt is still being sent, or was sent but not yet marked: this one waits for it.
    return planned?.status === 'pending' || planned?.status === 'scheduled' ? { status: 'busy' } : { status: 'done' };
  },

  async markSent(attempt, sent) {
    const tracked = (attempt.plan ?? []).length > 0;
    const at = sent.at.toISOString();
    const names = {
      '#survey': 'survey',
      '#attempt': 'attempt_id',
      '#sent_at': 'sent_at',
      '#message_id': 'message_id',
      '#expires': 'expires_at',
      ...(tracked ? { '#attempts': 'attempts', '#astatus': 'status', ...(sent.next ? { '#due': 'due_at' } : {}) } : {}),
    };
    const values = {
      ':attempt': attempt.attemptId,
      ':sent_at': at,
      ':message_id': sent.messageId,
      ':expires': sent.expiresAt.toISOString(),
      ...(tracked ? { ':asent': 'sent', ...(sent.next ? { ':next': 'scheduled', ':due': sent.next.dueAt.toISOString() } : {}) } : {}),
    };
    const plan = tracked
      ? `, ${entry(attempt.attemptId)}.#astatus = :asent, ${entry(attempt.attemptId)}.#sent_at = :sent_at` +
        (sent.next ? `, ${entry(sent.next.attemptId)}.#astatus = :next, ${entry(sent.next.attemptId)}.#due = :due` : '')
      : '';
    const counters = [
      ...(sent.tally ? counterUpdates(attempt.tenantId, sent.tally, attempt.transactionId) : []),
      ...marks(attempt, sent.analyticsMark),
    ];
    const written = await update(
      attempt,
      {
        UpdateExpression:
          'SET #survey.#sstatus = :sent, #survey.#sent_at = :sent_at, #survey.#message_id = :message_id, ' +
          `#survey.#expires = if_not_exists(#survey.#expires, :expires)${plan} REMOVE #survey.#claimed`,
        ConditionExpression: '#survey.#attempt = :attempt AND #survey.#sstatus = :scheduled',
        ExpressionAttributeNames: { ...names, '#sstatus': 'status', '#claimed': 'claimed_until' },
        ExpressionAttributeValues: { ...values, ':sent': 'sent', ':scheduled': 'scheduled' },
      },
      counters,
    );
    // Answered while it was being sent (the chatbot was quicker): keep the answer, note the message.
    if (!written)
      await update(
        attempt,
        {
          UpdateExpression: `SET #survey.#sent_at = :sent_at, #survey.#message_id = :message_id, #survey.#expires = if_not_exists(#survey.#expires, :expires)${plan}`,
          ConditionExpression: '#survey.#attempt = :attempt',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
        counters,
      );
  },

  async markFailed(attempt, failure) {
    const tracked = (attempt.plan ?? []).length > 0;
    const next = tracked ? failure.next : undefined;
    await update(
      attempt,
      {
        UpdateExpression:
          'SET #survey.#sstatus = :failed, #survey.#reason = :reason, #survey.#detail = :detail' +
          (tracked ? `, ${entry(attempt.attemptId)}.#astatus = :failed` : '') +
          (next ? `, ${entry(next.attemptId)}.#astatus = :next, ${entry(next.attemptId)}.#due = :due` : '') +
          ' REMOVE #survey.#claimed',
        ConditionExpression: '#survey.#attempt = :attempt AND #survey.#sstatus = :scheduled',
        ExpressionAttributeNames: {
          '#survey': 'survey',
          '#sstatus': 'status',
          '#attempt': 'attempt_id',
          '#reason': 'reason',
          '#detail': 'detail',
          '#claimed': 'claimed_until',
          ...(tracked ? { '#attempts': 'attempts', '#astatus': 'status' } : {}),
          ...(next ? { '#due': 'due_at' } : {}),
        },
        ExpressionAttributeValues: {
          ':failed': 'failed',
          ':reason': failure.reason,
          ':detail': failure.detail.slice(0, 500),
          ':attempt': attempt.attemptId,
          ':scheduled': 'scheduled',
          ...(next ? { ':next': 'scheduled', ':due': next.dueAt.toISOString() } : {}),
        },
      },
      marks(attempt, failure.analyticsMark),
    );
  },

  async release(attempt, dueAt) {
    const moved = dueAt && (attempt.plan ?? []).length > 0;
    await update(attempt, {
      UpdateExpression: `REMOVE #survey.#claimed${moved ? ` SET ${entry(attempt.attemptId)}.#due = :due` : ''}`,
      ConditionExpression: '#survey.#attempt = :attempt',
      ExpressionAttributeNames: {
        '#survey': 'survey',
        '#attempt': 'attempt_id',
        '#claimed': 'claimed_until',
        ...(moved ? { '#attempts': 'attempts', '#due': 'due_at' } : {}),
      },
      ExpressionAttributeValues: { ':attempt': attempt.attemptId, ...(moved ? { ':due': dueAt.toISOString() } : {}) },
    });
  },
};

const Plan = v.array(v.object({ attempt_id: v.number(), channel: v.picklist(CHANNELS), status: v.string() }));

function claimed(key: AttemptKey, item: Item): Claim {
  const survey = item.survey as { channel: Channel; expires_at?: string };
  const waits = (item.attempt_waits as number[] | undefined) ?? [];
  return {
    status: 'claimed',
    attempt: {
      ...key,
      channel: survey.channel,
      registeredAt: String(item.created_at),
      journeyId: Number(item.journey_id),
      storeId: Number(item.store_id),
      employeeId: Number(item.employee_id),
      customerId: Number(item.customer_id),
      contact: String(item.survey_contact),
      customerName: typeof item.customer_name === 'string' ? item.customer_name : null,
      ...(isLocale(item.survey_locale) ? { locale: item.survey_locale } : {}),
      plan: v.parse(v.optional(Plan, []), item.attempts).map((planned, i) => ({
        attemptId: planned.attempt_id,
        channel: planned.channel,
        status: planned.status,
        afterMinutes: waits[i] ?? 0,
      })),
      expiresAt: survey.expires_at,
    },
  };
}

/** The analytics export's mark of a survey's registration day, written with a change after that day (docs/analytics.md). */
const marks = (attempt: ClaimedAttempt, registeredAt: string | undefined): TransactItem[] =>
  registeredAt ? [dirtyMark(attempt.tenantId, { instant: registeredAt, recordId: attempt.transactionId })] : [];

/** A conditional update of a transaction item; false when its condition failed. */
async function update(
  key: AttemptKey,
  expression: Pick<
    UpdateCommand['input'],
    'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
  >,
  counters: TransactItem[] = [],
): Promise<boolean> {
  const { tableName } = db();
  return updateCounting({ TableName: tableName, Key: keys.transaction(key.tenantId, key.transactionId), ...expression }, counters);
}

// ---- Reachability: opt-outs and addresses that bounce -------------------------------------------------------------

export const addressHash = (address: string) => createHash('sha256').update(address.trim().toLowerCase()).digest('base64url');

export const reachability: Reachability = {
  async check(tenantId, { customerId, contact }) {
    const customerKey = keys.entity(tenantId, 'CUSTOMER', customerId);
    const suppressedKey = keys.suppressed(tenantId, addressHash(contact));
    // Read strongly: the customer's erasure may have replaced it by its marker a moment ago. It costs half a read unit
    // more per attempt (1 instead of 0.5 for the customer; an absent suppression entry costs nothing), measured.
    const items = await batchGet(db(), [customerKey, suppressedKey], { consistent: true });
    const customer = items.find((item) => item.pk === customerKey.pk && item.sk === customerKey.sk);
    if (customer?.[TABLE.entityAttribute] === 'CUSTOMER_ERASED') return 'erased';
    if (customer?.opt_out === true) return 'opted_out';
    if (items.some((item) => item.pk === suppressedKey.pk)) return 'undeliverable';
    return 'ok';
  },
};

/** Marks an address undeliverable for a tenant: later attempts to it fail, and new transactions skip it. */
export async function suppressAddress(tenantId: number, { address, reason, at }: AddressSuppression): Promise<void> {
  const { client, tableName } = db();
  await client.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...keys.suppressed(tenantId, addressHash(address)), [TABLE.entityAttribute]: 'SUPPRESSED', reason, at: at.toISOString() },
    }),
  );
}

export const storeNames: StoreNames = {
  async tradeName(tenantId, storeId) {
    const { client, tableName } = db();
    const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.entity(tenantId, 'STORE', storeId) }));
    return typeof Item?.trade_name === 'string' ? Item.trade_name : '';
  },
};
