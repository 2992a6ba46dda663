import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { EventDelivery, EventDeliveryPorts, EventPublisher, FailedDeliveries, FailedDelivery } from '../events/ports.js';
import { keys } from '../keys.js';
import { logger } from '../logger.js';
import { TABLE } from '../table.js';
import { eventEndpoint, signingSecrets } from '../events/signature.js';
import { eventFor } from '../events/events.js';
import type { Settings } from '../tenants/config-schema.js';
import { db } from './dynamodb.js';
import { contactGone } from './personal-copies.js';
import { sendMessage, sendMessages } from './sqs.js';

/** How long a failed delivery stays listed. */
export const FAILED_DELIVERY_DAYS = 30;
/** How long an endpoint has to answer. */
export const EVENT_TIMEOUT_MS = 10_000;

/** Publishes on the event queue, one message per endpoint that takes the type (the tenant's settings are cached). */
export function eventPublisher(settings: (tenantId: number) => Promise<Settings>): EventPublisher {
  return {
    async publish(tenantId, event) {
      const endpoints = ((await settings(tenantId)).delivery.webhooks ?? []).filter(
        (endpoint) => !endpoint.events || endpoint.events.includes(event.type),
      );
      if (endpoints.length === 0) return;
      // The comment never enters the queue for an endpoint that does not take it.
      const deliveries: EventDelivery[] = endpoints.map((endpoint) => ({
        tenantId,
        url: endpoint.url,
        event: eventFor(event, endpoint),
        attempt: 1,
      }));
      const unsent = await sendMessages('events', deliveries);
      if (unsent.length) throw new Error(`${unsent.length} event deliveries could not be queued`);
    },
  };
}

/** A publisher that never fails its caller: the event is logged as lost instead (the write it follows stands). */
export const bestEffort = (publisher: EventPublisher): EventPublisher => ({
  async publish(tenantId, event) {
    try {
      await publisher.publish(tenantId, event);
    } catch (error) {
      logger.error('Event not published', { tenantId, eventId: event.id, type: event.type, error: (error as Error).name });
    }
  },
});

export function eventDeliveryPorts(settings: (tenantId: number) => Promise<Settings>, surveySecret: () => string): EventDeliveryPorts {
  return {
    async post(url, body, headers) {
      const res = await fetch(url, { method: 'POST', body, headers, signal: AbortSignal.timeout(EVENT_TIMEOUT_MS), redirect: 'manual' });
      await res.body?.cancel();
      return res.status;
    },
    async requeue(delivery, delaySeconds) {
      await sendMessage('events', delivery, delaySeconds);
    },
    async recordFailure(tenantId, failure) {
      const { client, tableName } = db();
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            pk: keys.failedDeliveries(tenantId),
            sk: keys.failedDeliverySort(failure.failed_at, failure.event_id, failure.attempt),
            [TABLE.entityAttribute]: 'EVENT_DELIVERY',
            ...failure,
            [TABLE.ttlAttribute]: Math.floor(Date.parse(failure.failed_at) / 1000) + FAILED_DELIVERY_DAYS * 86_400,
          },
        }),
      );
    },
    async endpoint(tenantId, url, now) {
      const { delivery } = await settings(tenantId);
      const listed = (delivery.webhooks ?? []).find((endpoint) => endpoint.url === url);
      if (!listed) return undefined;
      const endpoint = eventEndpoint(url);
      return {
        secrets: signingSecrets(surveySecret(), tenantId, endpoint, delivery.signing?.[endpoint], now),
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
