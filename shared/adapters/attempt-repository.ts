/**
 * Survey attempts in the table: the claim and the result of each attempt (the survey map of its transaction), who
 * can still be reached (opt-outs, suppressed addresses), and store names. DynamoDB only: the survey pages use this
 * without loading the providers' SDKs.
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../keys.js';
import { TABLE } from '../table.js';
import type { Channel } from '../surveys/dispatch.js';
import type { AttemptKey, AttemptStore, Claim, Reachability, StoreNames } from '../surveys/ports.js';
import { batchGet, db, isConditionFailure, type Item } from './dynamodb.js';

// ---- Attempts: the survey map of the transaction item ------------------------------------------------------------

const names = {
  '#status': 'status',
  '#survey': 'survey',
  '#sstatus': 'status',
  '#attempt': 'attempt_id',
  '#claimed': 'claimed_until',
};

export const attemptStore: AttemptStore = {
  async claim(key, now, leaseSeconds): Promise<Claim> {
    const { client, tableName } = db();
    const nowSeconds = Math.floor(now.getTime() / 1000);
    try {
      const { Attributes } = await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.transaction(key.tenantId, key.transactionId),
          UpdateExpression: 'SET #survey.#claimed = :until',
          ConditionExpression:
            '#status = :created AND #survey.#attempt = :attempt AND #survey.#sstatus = :scheduled AND ' +
            '(attribute_not_exists(#survey.#claimed) OR #survey.#claimed < :now)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: {
            ':until': nowSeconds + leaseSeconds,
            ':now': nowSeconds,
            ':created': 'created',
            ':attempt': key.attemptId,
            ':scheduled': 'scheduled',
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
    const survey = item?.survey as { status?: string; attempt_id?: number } | undefined;
    if (!item || item.status !== 'created' || survey?.attempt_id !== key.attemptId) return { status: 'missing' };
    return survey.status === 'scheduled' ? { status: 'busy' } : { status: 'done' };
  },

  async markSent(key, sent) {
    const values = { ':attempt': key.attemptId, ':sent_at': sent.at.toISOString(), ':message_id': sent.messageId };
    const sentNames = { '#survey': 'survey', '#attempt': 'attempt_id', '#sent_at': 'sent_at', '#message_id': 'message_id' };
    const written = await update(key, {
      UpdateExpression:
        'SET #survey.#sstatus = :sent, #survey.#sent_at = :sent_at, #survey.#message_id = :message_id REMOVE #survey.#claimed',
      ConditionExpression: '#survey.#attempt = :attempt AND #survey.#sstatus = :scheduled',
      ExpressionAttributeNames: { ...sentNames, '#sstatus': 'status', '#claimed': 'claimed_until' },
      ExpressionAttributeValues: { ...values, ':sent': 'sent', ':scheduled': 'scheduled' },
    });
    // Answered while it was being sent (the chatbot was quicker): keep the answer, note the message.
    if (!written)
      await update(key, {
        UpdateExpression: 'SET #survey.#sent_at = :sent_at, #survey.#message_id = :message_id',
        ConditionExpression: '#survey.#attempt = :attempt',
        ExpressionAttributeNames: sentNames,
        ExpressionAttributeValues: values,
      });
  },

  async markFailed(key, failure) {
    await update(key, {
      UpdateExpression: 'SET #survey.#sstatus = :failed, #survey.#reason = :reason, #survey.#detail = :detail REMOVE #survey.#claimed',
      ConditionExpression: '#survey.#attempt = :attempt AND #survey.#sstatus = :scheduled',
      ExpressionAttributeNames: {
        '#survey': 'survey',
        '#sstatus': 'status',
        '#attempt': 'attempt_id',
        '#reason': 'reason',
        '#detail': 'detail',
        '#claimed': 'claimed_until',
      },
      ExpressionAttributeValues: {
        ':failed': 'failed',
        ':reason': failure.reason,
        ':detail': failure.detail.slice(0, 500),
        ':attempt': key.attemptId,
        ':scheduled': 'scheduled',
      },
    });
  },

  async release(key) {
    await update(key, {
      UpdateExpression: 'REMOVE #survey.#claimed',
      ConditionExpression: '#survey.#attempt = :attempt',
      ExpressionAttributeNames: { '#survey': 'survey', '#attempt': 'attempt_id', '#claimed': 'claimed_until' },
      ExpressionAttributeValues: { ':attempt': key.attemptId },
    });
  },
};

function claimed(key: AttemptKey, item: Item): Claim {
  const survey = item.survey as { channel: Channel };
  return {
    status: 'claimed',
    attempt: {
      ...key,
      channel: survey.channel,
      journeyId: Number(item.journey_id),
      storeId: Number(item.store_id),
      customerId: Number(item.customer_id),
      contact: String(item.survey_contact),
      customerName: typeof item.customer_name === 'string' ? item.customer_name : null,
    },
  };
}

/** A conditional update of a transaction item; false when its condition failed. */
async function update(
  key: AttemptKey,
  expression: Pick<
    UpdateCommand['input'],
    'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
  >,
): Promise<boolean> {
  const { client, tableName } = db();
  try {
    await client.send(new UpdateCommand({ TableName: tableName, Key: keys.transaction(key.tenantId, key.transactionId), ...expression }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

// ---- Reachability: opt-outs and addresses that bounce -------------------------------------------------------------

export const addressHash = (address: string) => createHash('sha256').update(address.trim().toLowerCase()).digest('base64url');

export const reachability: Reachability = {
  async check(tenantId, customerId, _channel, contact) {
    const customerKey = keys.entity(tenantId, 'CUSTOMER', customerId);
    const suppressedKey = keys.suppressed(tenantId, addressHash(contact));
    const items = await batchGet(db(), [customerKey, suppressedKey]);
    if (items.some((item) => item.pk === customerKey.pk && item.opt_out === true)) return 'opted_out';
    if (items.some((item) => item.pk === suppressedKey.pk)) return 'undeliverable';
    return 'ok';
  },
};

/** Marks an address undeliverable for a tenant: later attempts to it fail, and new transactions skip it. */
export async function suppressAddress(tenantId: number, address: string, reason: 'bounce' | 'complaint', at: Date): Promise<void> {
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
