import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { DeliveryReplayPorts, EventDeliveryPorts, FailedDeliveries, FailedDelivery } from '../events/ports.js';
import { EVENT_TYPES } from '../events/ports.js';
import { keys } from '../keys.js';
import { indexAttributes, inIndex, TABLE } from '../table.js';
import { eventEndpoint, signingSecrets } from '../events/signature.js';
import { deliveryId, withoutPersonalFields } from '../events/events.js';
import { ValidationError } from '../errors.js';
import { openCursor, sealCursor } from './cursor.js';
import type { Settings } from '../settings/settings.js';
import { db, isConditionFailure } from './dynamodb.js';
import { contactGone } from './personal-copies.js';
import { sendMessage } from './sqs.js';
import { postToWebhook } from './public-post.js';

/*
 * Delivering events (the event consumer), the failed deliveries listed per tenant and their replay (the admin
 * routes). Apart from publishing (./events.ts), which every function that reports a change holds.
 */

/** How long a failed delivery stays listed. */
export const FAILED_DELIVERY_DAYS = 30;
/** How long an endpoint has to answer. */
export const EVENT_TIMEOUT_MS = 10_000;

export function eventDeliveryPorts(settings: (tenantId: number) => Promise<Settings>, surveySecret: () => string): EventDeliveryPorts {
  return {
    post: (url, body, headers) => postToWebhook(url, { body, headers, timeoutMs: EVENT_TIMEOUT_MS }),
    async requeue(delivery, delaySeconds) {
      await sendMessage('events', delivery, delaySeconds);
    },
    async recordFailure(tenantId, failure, delivery) {
      const { client, tableName } = db();
      const expiresAt = Math.floor(Date.parse(failure.failed_at) / 1000) + FAILED_DELIVERY_DAYS * 86_400;
      // The delivery's state: failed again, listed in its endpoint's partition (gsi1) for a replay, its event kept
      // without personal fields for a re-send. Whatever it was (replaying, delivered), its newest try decides.
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.webhookDelivery(tenantId, failure.id),
            [TABLE.entityAttribute]: 'WEBHOOK_DELIVERY',
            ...inIndex(
              'gsi1',
              keys.failedDeliveriesOf(tenantId, eventEndpoint(delivery.url)),
              keys.failedDeliveryOfSort(delivery.event.created_at, failure.id),
            ),
            status: 'failed',
            url: delivery.url,
            event: withoutPersonalFields(delivery.event),
            attempt: delivery.attempt,
            failed_at: failure.failed_at,
            [TABLE.ttlAttribute]: expiresAt,
          },
        }),
      );
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            pk: keys.failedDeliveries(tenantId),
            sk: keys.failedDeliverySort(failure.failed_at, failure.event_id, failure.attempt),
            [TABLE.entityAttribute]: 'EVENT_DELIVERY',
            ...failure,
            [TABLE.ttlAttribute]: expiresAt,
          },
        }),
      );
    },
    async recordRetryDropped(tenantId, failure) {
      const { client, tableName } = db();
      try {
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: {
              pk: keys.failedDeliveries(tenantId),
              sk: keys.failedDeliverySort(failure.failed_at, failure.event_id, failure.attempt),
            },
            UpdateExpression: 'SET next_attempt_at = :none',
            // An entry gone (its 30 days passed) stays gone.
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':none': null },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    },
    async recordDelivered(tenantId, id) {
      await setStatus(tenantId, id, { status: 'delivered' });
    },
    async stillFailed(tenantId, id) {
      const { client, tableName } = db();
      const { Item } = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: keys.webhookDelivery(tenantId, id),
          ProjectionExpression: '#s',
          ExpressionAttributeNames: { '#s': 'status' },
          ConsistentRead: true,
        }),
      );
      // A delivery that failed before deliveries had a state (none kept) is still failed.
      return Item === undefined || Item.status === 'failed';
    },
    async endpoint(tenantId, url, now) {
      const { delivery } = await settings(tenantId);
      const listed = (delivery.webhooks ?? []).find((endpoint) => endpoint.url === url);
      if (!listed) return undefined;
      const endpoint = eventEndpoint(url);
      return {
        secrets: signingSecrets({ rootSecret: surveySecret(), tenantId, endpoint, generations: delivery.signing?.[endpoint], now }),
        includeComment: listed.includeComment,
      };
    },
    async personalDataGone(tenantId, event) {
      const transactionId = event.data.transaction_id;
      if (typeof transactionId !== 'number') return false;
      const { client, tableName } = db();
      const { Item } = await client.send(
        new GetCommand({
          TableName: tableName,
          Key: keys.transaction(tenantId, transactionId),
          ProjectionExpression: 'erased_at, personal_expired_at, personal_expires_at',
          ConsistentRead: true,
        }),
      );
      return Item !== undefined && contactGone(Item);
    },
  };
}

export const failedDeliveries: FailedDeliveries = {
  async recent(tenantId, limit) {
    const { client, tableName } = db();
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.failedDeliveries(tenantId) },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return Items.map((item): FailedDelivery => ({
      id: item.id ?? deliveryId(item.event_id, item.url),
      event_id: item.event_id,
      type: item.type,
      url: item.url,
      attempt: item.attempt,
      failed_at: item.failed_at,
      error: item.error,
      next_attempt_at: item.next_attempt_at ?? null,
    }));
  },
};

const { partitionKey: GSI1PK, sortKey: GSI1SK } = indexAttributes('gsi1');

/** Sets a delivery's state (when it has one), leaving the failed index: only a failed delivery is replayed. */
async function setStatus(
  tenantId: number,
  id: string,
  { status, onlyIfFailed = false }: { status: 'delivered' | 'replaying'; onlyIfFailed?: boolean },
): Promise<boolean> {
  const { client, tableName } = db();
  try {
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.webhookDelivery(tenantId, id),
        UpdateExpression: `SET #s = :status REMOVE ${GSI1PK}, ${GSI1SK}`,
        ConditionExpression: onlyIfFailed ? '#s = :failed' : 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':status': status, ...(onlyIfFailed ? { ':failed': 'failed' } : {}) },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

const DeliveryItem = v.object({
  status: v.picklist(['failed', 'replaying', 'delivered']),
  url: v.string(),
  attempt: v.number(),
  event: v.object({ id: v.string(), type: v.picklist(EVENT_TYPES), created_at: v.string(), data: v.record(v.string(), v.unknown()) }),
});

const StartKey = v.strictObject({ pk: v.string(), sk: v.string(), [GSI1PK]: v.string(), [GSI1SK]: v.string() });

export const deliveryReplays: DeliveryReplayPorts = {
  async find(tenantId, id) {
    const { client, tableName } = db();
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.webhookDelivery(tenantId, id), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    const item = v.parse(DeliveryItem, Item);
    return { status: item.status, delivery: { tenantId, url: item.url, event: item.event, attempt: item.attempt } };
  },
  claim: (tenantId, id) => setStatus(tenantId, id, { status: 'replaying', onlyIfFailed: true }),
  async failedSince(tenantId, { url, since, limit, cursor }) {
    const { client, tableName } = db();
    const partition = keys.failedDeliveriesOf(tenantId, eventEndpoint(url));
    // A cursor is sealed for this tenant, endpoint and time: it cannot be altered or used with another replay.
    const scope = JSON.stringify(['webhook-replay', partition, since]);
    let start: Record<string, unknown> | undefined;
    if (cursor) {
      const key = v.safeParse(StartKey, openCursor(cursor, scope));
      if (!key.success || key.output[GSI1PK] !== partition)
        throw new ValidationError('The cursor is not valid for this replay.', [
          { path: 'cursor', message: 'must be a next_cursor returned by a replay of the same endpoint and since' },
        ]);
      start = key.output;
    }
    const { Items = [], LastEvaluatedKey } = await client.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: '#pk = :pk AND #sk >= :since',
        ExpressionAttributeNames: { '#pk': GSI1PK, '#sk': GSI1SK },
        ExpressionAttributeValues: { ':pk': partition, ':since': since },
        Limit: limit,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    return {
      ids: Items.map((item) => String(item[GSI1SK]).slice(String(item[GSI1SK]).lastIndexOf('#') + 1)),
      next_cursor: LastEvaluatedKey ? sealCursor(LastEvaluatedKey, scope) : null,
    };
  },
  async send(delivery) {
    await sendMessage('events', delivery);
  },
};
