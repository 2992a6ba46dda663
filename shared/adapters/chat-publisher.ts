import { chatDeliveries } from '../chat/fan-out.js';
import type { ChatEventRecord } from '../chat/ports.js';
import type { TenantEvent } from '../events/ports.js';
import type { Settings } from '../settings/settings.js';
import { sendMessages } from './sqs.js';

/** Sends an event to the chat queue for each of the tenant's chat endpoints that takes it (its type, its store). */
export function chatPublisher(settings: (tenantId: number) => Promise<Settings>) {
  return {
    async publish(tenantId: number, event: TenantEvent | ChatEventRecord): Promise<void> {
      const deliveries = chatDeliveries(tenantId, (await settings(tenantId)).alerts?.chat ?? [], event);
      if (deliveries.length === 0) return;
      const unsent = await sendMessages('chat', deliveries);
      if (unsent.length) throw new Error(`${unsent.length} chat deliveries could not be queued`);
    },
  };
}
