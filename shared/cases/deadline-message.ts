import * as v from 'valibot';

/**
 * The message a case's deadline timer carries to CaseDeadlineQueue when it fires: it names the case and nothing
 * personal. Delivery is at least once: the case's overdue mark makes the escalation happen once.
 */
export const CaseDeadlineMessage = v.object({
  version: v.literal(1),
  tenantId: v.number(),
  caseId: v.number(),
  /** When the deadline falls: a message that arrives early is put back until then. */
  dueAt: v.optional(v.string()),
});
export type CaseDeadlineMessage = v.InferOutput<typeof CaseDeadlineMessage>;
