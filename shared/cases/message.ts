import * as v from 'valibot';

/** The case queue's message: which answer was written (no personal data: tenant, transaction, answer version). */
export const CaseMessage = v.object({
  tenantId: v.pipe(v.number(), v.integer()),
  transactionId: v.pipe(v.number(), v.integer()),
  version: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** Set on the message that comes back when the tenant's quiet hours end: it sends the held WhatsApp alerts only. */
  alert: v.optional(v.literal('whatsapp')),
  /** When a held alert is due (set by its timer). */
  dueAt: v.optional(v.string()),
});
export type CaseMessage = v.InferOutput<typeof CaseMessage>;
