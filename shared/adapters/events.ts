import type { EventDelivery, EventPublisher } from '../events/ports.js';
import { eventFor } from '../events/events.js';
import { logger } from '../logger.js';
import type { Settings } from '../settings/settings.js';
import { sendMessages } from './sqs.js';

/*
 * Publishing events: what every function that reports a change holds. Delivering, listing and replaying them
 * (./event-deliveries.ts) is the event consumer's and the admin routes' alone.
 */

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
