import { createHash } from 'node:crypto';
import { MAX_DELAY_SECONDS } from '../queues.js';
import { webhookHeaders } from './signature.js';
import type { EventDelivery, EventDeliveryPorts, EventType, TenantEvent } from './ports.js';

/**
 * Waits before each retry of a delivery that failed: growing from a minute to a day, about 44 hours in all. After
 * the last, the delivery goes to the event queue's dead-letter queue (by failing it there until it is redriven).
 */
export const RETRY_MINUTES = [1, 5, 30, 120, 360, 720, 1440] as const;

/** An event's id: the same for the same happening, however often it is published. */
export const eventId = (tenantId: number, type: EventType, subject: string) =>
  `evt_${createHash('sha256').update(`${tenantId}/${type}/${subject}`).digest('base64url').slice(0, 32)}`;

/** A delivery's id: one event to one endpoint, the same for every try of it (what the retry route takes). */
export const deliveryId = (eventId: string, url: string) =>
  `dlv_${createHash('sha256').update(`${eventId}\n${url}`).digest('base64url').slice(0, 32)}`;

export function tenantEvent(
  tenantId: number,
  { type, subject, data, at }: { type: EventType; subject: string; data: Record<string, unknown>; at: Date },
): TenantEvent {
  return { id: eventId(tenantId, type, subject), type, created_at: at.toISOString(), data };
}

/** What an event carries in a customer's own words (which may hold a name, a cpf, a phone): an answer's comment. */
const PERSONAL_FIELDS = ['comment'] as const;

/**
 * The event as a failed delivery keeps it for a retry: without its personal fields, so that the copy kept 30 days is
 * not one more place an erasure would have to reach (a replayed answer goes without its comment).
 */
export const withoutPersonalFields = (event: TenantEvent): TenantEvent => ({
  ...event,
  data: Object.fromEntries(Object.entries(event.data).filter(([field]) => !(PERSONAL_FIELDS as readonly string[]).includes(field))),
});

/** The event as it may still be sent: without its personal fields once its customer was erased (or they expired). */
async function withoutErasedData({ tenantId, event }: EventDelivery, ports: EventDeliveryPorts): Promise<TenantEvent> {
  if (!PERSONAL_FIELDS.some((field) => event.data[field] !== undefined && event.data[field] !== null)) return event;
  if (!(await ports.personalDataGone(tenantId, event))) return event;
  return { ...event, data: { ...event.data, ...Object.fromEntries(PERSONAL_FIELDS.map((field) => [field, null])) } };
}

/**
 * What one endpoint receives of an event: everything but the answer's free-text comment (customers type CPFs and
 * phones into it), which goes only to an endpoint the tenant opted in with `includeComment`.
 */
export function eventFor(event: TenantEvent, endpoint: { includeComment?: boolean | undefined }): TenantEvent {
  if (endpoint.includeComment || !('comment' in event.data)) return event;
  const { comment: _, ...data } = event.data;
  return { ...event, data };
}

export type DeliveryOutcome = 'delivered' | 'waiting' | 'retrying' | 'dropped' | 'failed';

/** Thrown for the last failure: the queue retries it a few times more, then dead-letters it. */
export class DeliveryExhausted extends Error {
  constructor(readonly delivery: EventDelivery) {
    super('The event could not be delivered: it goes to the dead-letter queue');
    this.name = 'DeliveryExhausted';
  }
}

/**
 * Delivers one event to one endpoint: POSTs it signed (Standard Webhooks, its id as `webhook-id`, with each secret
 * the endpoint signs with now; the comment dropped if the endpoint no longer takes it); a 2xx is delivered. Anything
 * else (another status, a timeout, a refused connection) is recorded as a failed delivery and retried after the next
 * wait. An endpoint the tenant no longer lists gets nothing more.
 */
export async function deliverEvent(delivery: EventDelivery, ports: EventDeliveryPorts, now = new Date()): Promise<DeliveryOutcome> {
  const id = deliveryId(delivery.event.id, delivery.url);
  // A retry that will not be sent: the failure before it no longer announces it.
  const dropped = async (): Promise<'dropped'> => {
    if (delivery.lastFailedAt && !delivery.replay)
      await ports.recordRetryDropped(delivery.tenantId, {
        failed_at: delivery.lastFailedAt,
        event_id: delivery.event.id,
        attempt: delivery.attempt - 1,
      });
    return 'dropped';
  };
  // An automatic retry of a delivery the tenant re-sent (or that was delivered since) is not sent again.
  if (delivery.attempt > 1 && !delivery.replay && !(await ports.stillFailed(delivery.tenantId, id))) return dropped();
  if (delivery.notBefore && Date.parse(delivery.notBefore) > now.getTime()) {
    await ports.requeue(delivery, Math.min(MAX_DELAY_SECONDS, Math.ceil((Date.parse(delivery.notBefore) - now.getTime()) / 1000)));
    return 'waiting';
  }
  const endpoint = await ports.endpoint(delivery.tenantId, delivery.url, now);
  if (!endpoint) return dropped();
  const event = eventFor(await withoutErasedData(delivery, ports), endpoint);
  const body = JSON.stringify(event);
  let error: string;
  try {
    const status = await ports.post(delivery.url, body, {
      'content-type': 'application/json',
      ...webhookHeaders({ secrets: endpoint.secrets, id: event.id, body, now }),
    });
    if (status >= 200 && status < 300) {
      // Only a delivery that failed before has a state to update: a first try that succeeds costs no write.
      if (delivery.attempt > 1 || delivery.replay) await ports.recordDelivered(delivery.tenantId, id);
      return 'delivered';
    }
    error = `HTTP ${status}`;
  } catch (failure) {
    const name = failure instanceof Error ? failure.name : '';
    // NotPublicAddress: the adapter would not call a host that is (or resolves to) a private address on this deployment.
    error = name === 'TimeoutError' ? 'timeout' : name === 'NotPublicAddress' ? 'not a public host' : 'unreachable';
  }
  // A re-sent delivery that fails again is listed as failed, to be re-sent again: the tenant chose to try it now.
  const wait = delivery.replay ? undefined : RETRY_MINUTES[delivery.attempt - 1];
  const next = wait === undefined ? undefined : new Date(now.getTime() + wait * 60_000);
  await ports.recordFailure(
    delivery.tenantId,
    {
      id,
      event_id: delivery.event.id,
      type: delivery.event.type,
      url: delivery.url,
      attempt: delivery.attempt,
      failed_at: now.toISOString(),
      error,
      next_attempt_at: next?.toISOString() ?? null,
    },
    delivery,
  );
  if (delivery.replay) return 'failed';
  if (!next) throw new DeliveryExhausted(delivery);
  await ports.requeue(
    { ...delivery, attempt: delivery.attempt + 1, notBefore: next.toISOString(), lastFailedAt: now.toISOString() },
    Math.min(MAX_DELAY_SECONDS, wait! * 60),
  );
  return 'retrying';
}
