/**
 * The recovery survey in the table: the `recovery` map of its transaction's item (`RecoverySurvey`, plus the
 * claim's `claimed_until`). On the transaction's own item, so that its one attempt is claimed, sent and answered
 * with conditional writes as the first survey's are, reads the contact from the transaction's own copies (which
 * erasure and retention remove), and is gone with the transaction.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { CHANNEL_RECORDS, CHANNELS, type Channel } from '../channels.js';
import { isLocale } from '../i18n/messages.js';
import { keys } from '../keys.js';
import type { RecoveryStore } from '../recovery/ports.js';
import type { AttemptKey, AttemptStore, Claim } from '../surveys/ports.js';
import type { RecoverySurvey } from '../transaction-record.js';
import { db, isConditionFailure, type Item } from './dynamodb.js';
import { contactGone } from './personal-copies.js';
import { counterUpdates, updateCounting } from './result-counters.js';
import { findById } from './transaction-repository.js';

const NAMES = { '#recovery': 'recovery', '#rstatus': 'status', '#claimed': 'claimed_until' };
/** A transaction that can still reach its customer: created, not erased, its personal copies not expired. */
const REACHABLE =
  '#status = :created AND attribute_not_exists(#erased) AND attribute_not_exists(#stripped) AND (attribute_not_exists(#expires) OR #expires > :nowIso)';
const REACHABLE_NAMES = {
  '#status': 'status',
  '#erased': 'erased_at',
  '#stripped': 'personal_expired_at',
  '#expires': 'personal_expires_at',
};

const keyOf = (key: AttemptKey) => keys.transaction(key.tenantId, key.transactionId);

/** A conditional update of the recovery map; false when its condition failed. */
async function update(
  key: AttemptKey,
  input: Pick<
    UpdateCommand['input'],
    'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
  >,
): Promise<boolean> {
  const { client, tableName } = db();
  try {
    await client.send(new UpdateCommand({ TableName: tableName, Key: keyOf(key), ...input }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

const Stored = v.object({ channel: v.picklist(CHANNELS), expires_at: v.optional(v.string()) });

/** The recovery survey's one attempt, with the promises of the first survey's (`attemptStore`). */
export const recoveryAttempts: AttemptStore = {
  async claim(key, { now, leaseSeconds }): Promise<Claim> {
    const { client, tableName } = db();
    const nowSeconds = Math.floor(now.getTime() / 1000);
    try {
      const { Attributes: item } = await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keyOf(key),
          UpdateExpression: 'SET #recovery.#claimed = :until',
          ConditionExpression: `${REACHABLE} AND #recovery.#rstatus = :scheduled AND (attribute_not_exists(#recovery.#claimed) OR #recovery.#claimed < :now)`,
          ExpressionAttributeNames: { ...NAMES, ...REACHABLE_NAMES },
          ExpressionAttributeValues: {
            ':until': nowSeconds + leaseSeconds,
            ':now': nowSeconds,
            ':nowIso': now.toISOString(),
            ':created': 'created',
            ':scheduled': 'scheduled',
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return claimed(key, item!);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const { Item: item } = await client.send(new GetCommand({ TableName: tableName, Key: keyOf(key), ConsistentRead: true }));
    if (!item || item.status !== 'created' || contactGone(item, now.toISOString()) || !item.recovery) return { status: 'missing' };
    return (item.recovery as { status?: string }).status === 'scheduled' ? { status: 'busy' } : { status: 'done' };
  },

  async markSent(attempt, sent) {
    await update(attempt, {
      UpdateExpression:
        'SET #recovery.#rstatus = :sent, #recovery.#sent_at = :at, #recovery.#message_id = :message_id, #recovery.#expires = :expires REMOVE #recovery.#claimed',
      ConditionExpression: '#recovery.#rstatus = :scheduled',
      ExpressionAttributeNames: { ...NAMES, '#sent_at': 'sent_at', '#message_id': 'message_id', '#expires': 'expires_at' },
      ExpressionAttributeValues: {
        ':sent': 'sent',
        ':scheduled': 'scheduled',
        ':at': sent.at.toISOString(),
        ':message_id': sent.messageId,
        ':expires': sent.expiresAt.toISOString(),
      },
    });
  },

  async markFailed(attempt, failure) {
    // The reason only: a provider's words may quote the address, and this map is not among the personal copies.
    await update(attempt, {
      UpdateExpression: 'SET #recovery.#rstatus = :failed, #recovery.#reason = :reason REMOVE #recovery.#claimed',
      ConditionExpression: '#recovery.#rstatus = :scheduled',
      ExpressionAttributeNames: { ...NAMES, '#reason': 'reason' },
      ExpressionAttributeValues: { ':failed': 'failed', ':scheduled': 'scheduled', ':reason': failure.reason },
    });
  },

  async release(attempt) {
    await update(attempt, {
      UpdateExpression: 'REMOVE #recovery.#claimed',
      ConditionExpression: 'attribute_exists(#recovery)',
      ExpressionAttributeNames: { '#recovery': 'recovery', '#claimed': 'claimed_until' },
    });
  },
};

function claimed(key: AttemptKey, item: Item): Claim {
  const recovery = v.parse(Stored, item.recovery);
  // The address of the survey's current attempt, when it is of the same kind, else the later attempts' copy.
  const kind = CHANNEL_RECORDS[recovery.channel].contact;
  const current = (item.survey as { channel?: string } | undefined)?.channel;
  const contacts = (item.survey_contacts ?? {}) as { phone?: string; email?: string };
  const sameKind =
    current !== undefined && (CHANNELS as readonly string[]).includes(current) && CHANNEL_RECORDS[current as Channel].contact === kind;
  const contact = sameKind && typeof item.survey_contact === 'string' ? item.survey_contact : contacts[kind];
  if (!contact) return { status: 'missing' };
  return {
    status: 'claimed',
    attempt: {
      ...key,
      kind: 'recovery',
      channel: recovery.channel,
      journeyId: Number(item.journey_id),
      storeId: Number(item.store_id),
      employeeId: Number(item.employee_id),
      customerId: Number(item.customer_id),
      contact,
      customerName: typeof item.customer_name === 'string' ? item.customer_name : null,
      ...(isLocale(item.survey_locale) ? { locale: item.survey_locale } : {}),
      plan: [],
      expiresAt: recovery.expires_at,
    },
  };
}

/** Opening and answering the recovery survey. */
export const recoveryStore: RecoveryStore = {
  transaction: findById,

  async open(tenantId, transactionId, recovery) {
    const key = { tenantId, transactionId, attemptId: 1 };
    const written = await update(key, {
      UpdateExpression: 'SET #recovery = :recovery',
      ConditionExpression: '#status = :created AND attribute_not_exists(#recovery)',
      ExpressionAttributeNames: { '#recovery': 'recovery', '#status': 'status' },
      ExpressionAttributeValues: { ':recovery': recovery, ':created': 'created' },
    });
    if (written) return 'created';
    const stored = await findById(tenantId, transactionId);
    return stored?.recovery ? { exists: stored.recovery } : 'missing';
  },

  async answer(tenantId, { transactionId, answer, tally }) {
    const { tableName } = db();
    const written = await updateCounting(
      {
        TableName: tableName,
        Key: keys.transaction(tenantId, transactionId),
        UpdateExpression:
          'SET #recovery.#rstatus = :answered, #recovery.#answered_at = :at, #recovery.#recovered = :recovered, #recovery.#score = :score',
        ConditionExpression: '#status = :created AND attribute_not_exists(#erased) AND #recovery.#rstatus = :sent',
        ExpressionAttributeNames: {
          '#recovery': 'recovery',
          '#rstatus': 'status',
          '#status': 'status',
          '#erased': 'erased_at',
          '#answered_at': 'answered_at',
          '#recovered': 'recovered',
          '#score': 'score',
        },
        ExpressionAttributeValues: {
          ':answered': 'answered',
          ':sent': 'sent',
          ':created': 'created',
          ':at': answer.answeredAt,
          ':recovered': answer.recovered,
          ':score': answer.score,
        } satisfies Item,
      },
      counterUpdates(tenantId, tally, transactionId),
    );
    if (written) return 'written';
    const stored: RecoverySurvey | undefined = (await findById(tenantId, transactionId))?.recovery;
    return stored?.status === 'answered' ? 'conflict' : 'missing';
  },
};
