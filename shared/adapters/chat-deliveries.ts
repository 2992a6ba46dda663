import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { BROKEN_AFTER } from '../chat/delivery.js';
import type { ChatDelivery, ChatDeliveryPorts, ChatEndpointHealth, FailedChatDelivery } from '../chat/ports.js';
import { eventEndpoint } from '../events/signature.js';
import { keys } from '../keys.js';
import { maskedAmong } from '../chat/masked-url.js';
import { indexAttributes, TABLE } from '../table.js';
import type { Settings } from '../settings/settings.js';
import { db, isConditionFailure } from './dynamodb.js';
import { postToWebhook } from './public-post.js';
import { sendMessage } from './sqs.js';

/*
 * The chat endpoints' deliveries (shared/chat/): each claimed once in the table before it is sent, failures listed per
 * tenant, each endpoint's gone answers counted. Apart from the fan-out (./chat-publisher.ts), which publishers hold.
 */

/** How long a chat message's claim (and its failure) is kept: a redelivery later than that is not expected. */
export const CHAT_DELIVERY_DAYS = 30;
/** How long a chat endpoint has to answer (Slack and Teams answer in well under a second). */
export const CHAT_TIMEOUT_MS = 10_000;

const { partitionKey: GSI1PK, sortKey: GSI1SK } = indexAttributes('gsi1');
const expiry = (at: string) => Math.floor(Date.parse(at) / 1000) + CHAT_DELIVERY_DAYS * 86_400;
const endpointKey = (tenantId: number, url: string) => ({ pk: keys.chatEndpoints(tenantId), sk: eventEndpoint(url) });

export function chatDeliveryPorts(settings: (tenantId: number) => Promise<Settings>): Omit<ChatDeliveryPorts, 'compose'> {
  return {
    post: (url, body) => postToWebhook(url, { body, headers: { 'content-type': 'application/json' }, timeoutMs: CHAT_TIMEOUT_MS }),
    async requeue(delivery, delaySeconds) {
      await sendMessage('chat', delivery, delaySeconds);
    },
    async claim(tenantId, id, delivery) {
      const { client, tableName } = db();
      const at = new Date().toISOString();
      try {
        // The first try creates the claim; a later one (a retry, a re-send) takes it back only from a failure of an
        // earlier try, so that the queue's redelivery of any try finds it taken.
        await client.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.chatDelivery(tenantId, id),
            UpdateExpression: `SET #s = :sent, attempt = :attempt, #url = :url, #event = if_not_exists(#event, :event), ${TABLE.entityAttribute} = :entity, ${TABLE.ttlAttribute} = :expires REMOVE ${GSI1PK}, ${GSI1SK}`,
            ConditionExpression: 'attribute_not_exists(pk) OR (#s = :failed AND attempt < :attempt)',
            ExpressionAttributeNames: { '#s': 'status', '#url': 'url', '#event': 'event' },
            ExpressionAttributeValues: {
              ':sent': 'sent',
              ':failed': 'failed',
              ':attempt': delivery.attempt,
              ':url': delivery.url,
              ':event': delivery.event,
              ':entity': 'CHAT_DELIVERY',
              ':expires': expiry(at),
            },
          }),
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },
    async recordFailure(tenantId, failure) {
      const { client, tableName } = db();
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.chatDelivery(tenantId, failure.id),
          UpdateExpression: `SET #s = :failed, failed_at = :at, #error = :error, next_attempt_at = :next, #type = :type, ${GSI1PK} = :list, ${GSI1SK} = :sort, ${TABLE.ttlAttribute} = :expires`,
          ExpressionAttributeNames: { '#s': 'status', '#error': 'error', '#type': 'type' },
          ExpressionAttributeValues: {
            ':failed': 'failed',
            ':at': failure.failed_at,
            ':error': failure.error,
            ':next': failure.next_attempt_at,
            ':type': failure.type,
            ':list': keys.failedChatDeliveries(tenantId),
            ':sort': keys.failedChatDeliverySort(failure.failed_at, failure.id),
            ':expires': expiry(failure.failed_at),
          },
        }),
      );
    },
    async endpoint(tenantId, url) {
      const listed = ((await settings(tenantId)).alerts?.chat ?? []).find((endpoint) => endpoint.url === url);
      if (!listed) return undefined;
      const { client, tableName } = db();
      const { Item } = await client.send(
        new GetCommand({ TableName: tableName, Key: endpointKey(tenantId, url), ProjectionExpression: 'gone' }),
      );
      return { ...listed, gone: Number(Item?.gone ?? 0) };
    },
    async recordGone(tenantId, url) {
      const { client, tableName } = db();
      const { Attributes } = await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: endpointKey(tenantId, url),
          UpdateExpression: `ADD gone :one SET #url = :url, ${TABLE.entityAttribute} = :entity`,
          ExpressionAttributeNames: { '#url': 'url' },
          ExpressionAttributeValues: { ':one': 1, ':url': url, ':entity': 'CHAT_ENDPOINT' },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(Attributes?.gone ?? 1);
    },
    async recordAnswered(tenantId, url) {
      const { client, tableName } = db();
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: endpointKey(tenantId, url),
          UpdateExpression: 'SET gone = :none',
          ExpressionAttributeValues: { ':none': 0 },
        }),
      );
    },
  };
}

/**
 * What the admin page shows: the failed chat deliveries (newest first) and each endpoint's health, by its URL masked
 * among the tenant's endpoints' `urls` (as the configuration reads it).
 */
export const chatStatus = {
  async failed(tenantId: number, limit: number, urls: readonly string[]): Promise<FailedChatDelivery[]> {
    const { client, tableName } = db();
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': GSI1PK },
        ExpressionAttributeValues: { ':pk': keys.failedChatDeliveries(tenantId) },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return Items.map((item) => ({
      id: String(item[GSI1SK]).slice(String(item[GSI1SK]).lastIndexOf('#') + 1),
      event_id: item.event.id,
      type: item.type,
      // A credential: shown masked, as the configuration shows it.
      url: maskedAmong(String(item.url), urls),
      attempt: item.attempt,
      failed_at: item.failed_at,
      error: item.error,
      next_attempt_at: item.next_attempt_at ?? null,
    }));
  },
  async health(tenantId: number, urls: readonly string[]): Promise<Map<string, ChatEndpointHealth>> {
    const { client, tableName } = db();
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.chatEndpoints(tenantId) },
      }),
    );
    return new Map(
      Items.map((item) => [maskedAmong(String(item.url), urls), { gone: Number(item.gone), broken: Number(item.gone) >= BROKEN_AFTER }]),
    );
  },
  /** A delivery and its state (`failed`, or `sent`: claimed by a try since), to be re-sent; undefined when unknown. */
  async find(tenantId: number, id: string): Promise<{ status: 'failed' | 'sent'; delivery: ChatDelivery } | undefined> {
    const { client, tableName } = db();
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.chatDelivery(tenantId, id), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    return {
      status: Item.status === 'failed' ? 'failed' : 'sent',
      delivery: { tenantId, url: Item.url, event: Item.event, attempt: Number(Item.attempt) },
    };
  },
  async send(delivery: ChatDelivery): Promise<void> {
    await sendMessage('chat', delivery);
  },
};
