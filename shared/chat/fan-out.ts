import type { TenantEvent } from '../events/ports.js';
import type { ChatDelivery, ChatEndpoint, ChatEvent } from './ports.js';
import { CHAT_EVENTS } from './ports.js';

/** The deliveries of an event to the tenant's chat endpoints that take it: its type, and its store when they list stores. */
export function chatDeliveries(
  tenantId: number,
  endpoints: readonly ChatEndpoint[],
  event: TenantEvent | ChatDelivery['event'],
): ChatDelivery[] {
  if (!(CHAT_EVENTS as readonly string[]).includes(event.type)) return [];
  const type = event.type as ChatEvent;
  const store = typeof event.data.store_id === 'number' ? event.data.store_id : undefined;
  return endpoints
    .filter((endpoint) => endpoint.events.includes(type))
    .filter((endpoint) => !endpoint.stores || (store !== undefined && endpoint.stores.includes(store)))
    .map((endpoint) => ({ tenantId, url: endpoint.url, event: { ...event, type }, attempt: 1 }));
}
