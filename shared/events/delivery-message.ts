import * as v from 'valibot';
import { EVENT_TYPES, type EventDelivery } from './ports.js';

const Count = v.pipe(v.number(), v.integer(), v.minValue(1));
const Instant = v.pipe(v.string(), v.isoTimestamp());

/** An event as the queues carry it: its id, type, time and what it is about. */
export const TenantEventMessage = v.object({
  id: v.pipe(v.string(), v.nonEmpty()),
  type: v.picklist(EVENT_TYPES),
  created_at: Instant,
  data: v.record(v.string(), v.unknown()),
});

/** The event queue's message, checked at the consumer's door: one event for one endpoint. */
export const EventDeliveryMessage = v.object({
  tenantId: Count,
  url: v.pipe(v.string(), v.url()),
  event: TenantEventMessage,
  attempt: Count,
  notBefore: v.optional(Instant),
  replay: v.optional(v.literal(true)),
  lastFailedAt: v.optional(Instant),
});

// The schema and the port's record stay one shape: each is assignable to the other.
true satisfies v.InferOutput<typeof EventDeliveryMessage> extends EventDelivery
  ? EventDelivery extends v.InferOutput<typeof EventDeliveryMessage>
    ? true
    : never
  : never;
