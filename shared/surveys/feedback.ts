import * as v from 'valibot';
import { logger } from '../logger.js';
import { count } from '../metrics.js';

/**
 * What SES reports about a survey e-mail after it left (through the configuration set's event destination): a
 * permanent bounce makes the address undeliverable for the tenant; a complaint does too, and opts the customer out.
 * Transient bounces (a full mailbox) change nothing.
 */

/** An address made undeliverable: why (a permanent bounce or a complaint), and when. */
export interface AddressSuppression {
  address: string;
  reason: 'bounce' | 'complaint';
  at: Date;
}

export interface FeedbackPorts {
  suppress(tenantId: number, suppression: AddressSuppression): Promise<void>;
  optOut(tenantId: number, customerId: number): Promise<void>;
}

const Recipients = v.array(v.object({ emailAddress: v.string() }));
/** An SES event record (event publishing: `eventType`; identity notifications: `notificationType`). */
export const SesEvent = v.object({
  eventType: v.optional(v.string()),
  notificationType: v.optional(v.string()),
  mail: v.object({ tags: v.optional(v.record(v.string(), v.array(v.string())), {}) }),
  bounce: v.optional(v.object({ bounceType: v.string(), bouncedRecipients: Recipients })),
  complaint: v.optional(v.object({ complainedRecipients: Recipients })),
});
export type SesEvent = v.InferOutput<typeof SesEvent>;

export type FeedbackOutcome = 'suppressed' | 'opted_out' | 'ignored';

export async function recordEmailFeedback(event: SesEvent, ports: FeedbackPorts, now = new Date()): Promise<FeedbackOutcome> {
  const type = event.eventType ?? event.notificationType;
  const tag = (name: string) => Number(event.mail.tags[name]?.[0]);
  const tenantId = tag('tenant');
  const customerId = tag('customer');
  // Only our survey e-mails carry the tenant: anything else sent through the configuration set is not ours to judge.
  if (!Number.isInteger(tenantId) || tenantId < 1) return 'ignored';
  if (type === 'Bounce' && event.bounce?.bounceType === 'Permanent') {
    for (const r of event.bounce.bouncedRecipients) await ports.suppress(tenantId, { address: r.emailAddress, reason: 'bounce', at: now });
    count('SurveysBounced', 'email');
    logger.info('Survey e-mail bounced; the address is suppressed', { tenantId, customerId });
    return 'suppressed';
  }
  if (type === 'Complaint' && event.complaint) {
    for (const r of event.complaint.complainedRecipients)
      await ports.suppress(tenantId, { address: r.emailAddress, reason: 'complaint', at: now });
    if (Number.isInteger(customerId) && customerId > 0) await ports.optOut(tenantId, customerId);
    logger.info('Survey e-mail complaint; the customer is opted out', { tenantId, customerId });
    return 'opted_out';
  }
  return 'ignored';
}
