import * as v from 'valibot';
import { TenantEventMessage } from '../events/delivery-message.js';
import { CHAT_EVENTS, type ChatDelivery } from './ports.js';

const Count = v.pipe(v.number(), v.integer(), v.minValue(1));

/** The chat queue's message, checked at the consumer's door: one event (a case's, a digest, a score drop) for one endpoint. */
export const ChatDeliveryMessage = v.object({
  tenantId: Count,
  url: v.pipe(v.string(), v.url()),
  event: v.object({ ...TenantEventMessage.entries, type: v.picklist(CHAT_EVENTS) }),
  attempt: Count,
  notBefore: v.optional(v.pipe(v.string(), v.isoTimestamp())),
  replay: v.optional(v.literal(true)),
});

// The schema and the port's record stay one shape: each is assignable to the other.
true satisfies v.InferOutput<typeof ChatDeliveryMessage> extends ChatDelivery
  ? ChatDelivery extends v.InferOutput<typeof ChatDeliveryMessage>
    ? true
    : never
  : never;
