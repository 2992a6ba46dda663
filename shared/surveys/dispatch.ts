import * as v from 'valibot';
import { addressFor, CHANNELS, type Channel } from '../channels.js';

/**
 * The message a transaction puts on SurveyDispatchQueue for the channel senders. It names the attempt and carries
 * no personal data: the sender reads the contact from the transaction when it claims the attempt. Delivery is at
 * least once: the claim (tenantId, transactionId, attemptId) makes the send happen once.
 */
export const DispatchMessage = v.object({
  version: v.literal(1),
  /** The recovery survey of the transaction (`shared/recovery/`): its one attempt, on `channel`; absent: the first survey. */
  kind: v.optional(v.literal('recovery')),
  tenantId: v.number(),
  transactionId: v.number(),
  attemptId: v.number(),
  journeyId: v.number(),
  journey: v.string(),
  channel: v.picklist(CHANNELS),
  createdAt: v.string(),
  /** When the attempt is due, if later than the message is sent: a message that arrives early is put back until then. */
  dueAt: v.optional(v.string()),
});
export type DispatchMessage = v.InferOutput<typeof DispatchMessage>;

export type { Channel };

/** The first channel of the journey the customer can be reached on (the address rule: `addressFor`). */
export function chooseChannel(
  channels: readonly Channel[],
  contact: { phone: string | null; email: string | null },
): { channel: Channel; contact: string } | undefined {
  for (const channel of channels) {
    const address = addressFor(channel, contact);
    if (address) return { channel, contact: address };
  }
  return undefined;
}
