import * as v from 'valibot';
import { CHANNELS } from '../tenants/config-schema.js';

/**
 * The message a transaction puts on SurveyDispatchQueue for the channel senders. Delivery is at least once:
 * senders deduplicate on (tenantId, transactionId, attemptId).
 */
export const DispatchMessage = v.object({
  version: v.literal(1),
  tenantId: v.number(),
  transactionId: v.number(),
  attemptId: v.number(),
  journeyId: v.number(),
  journey: v.string(),
  channel: v.picklist(CHANNELS),
  /** The phone (E.164) or e-mail address to send to. */
  contact: v.string(),
  customerName: v.string(),
  /** Opaque token for the survey link. */
  surveyToken: v.string(),
  createdAt: v.string(),
});
export type DispatchMessage = v.InferOutput<typeof DispatchMessage>;

export type Channel = (typeof CHANNELS)[number];

/** The first channel of the journey the customer can be reached on: a phone for whatsapp, sms and ura, else e-mail. */
export function chooseChannel(
  channels: readonly Channel[],
  contact: { phone: string | null; email: string | null },
): { channel: Channel; contact: string } | undefined {
  for (const channel of channels) {
    const address = channel === 'email' ? contact.email : contact.phone;
    if (address) return { channel, contact: address };
  }
  return undefined;
}
