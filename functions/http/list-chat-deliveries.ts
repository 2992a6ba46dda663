import * as v from 'valibot';
import { answer, dataOf, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { integerString, instant, wholeNumber } from '../../shared/schema.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { CHAT_EVENTS } from '../../shared/chat/ports.js';
import { chatAdmin } from '../../shared/adapters/wiring/chat.js';

const Query = v.strictObject({
  status: v.picklist(['failed'], 'must be failed (the chat messages listed are the failed ones)'),
  limit: v.optional(integerString(1, 100), '50'),
});

const FailedChatBody = v.object({
  id: v.string(),
  event_id: v.string(),
  type: v.picklist(CHAT_EVENTS),
  url: v.string(),
  attempt: wholeNumber,
  failed_at: instant,
  error: v.string(),
  next_attempt_at: v.nullable(instant),
});

/** The tenant's chat messages (Slack, Teams) that failed in the last 30 days, newest first: each try, and when the next is. */
export const contract = {
  admin: 'tenant' as const,
  query: Query,
  statuses: { forbidden: 403, validation: 422 },
  responses: {
    200: answer('Failed chat messages, newest first', dataOf(FailedChatBody)),
    403: problem(NOT_TENANT_ADMIN),
    422: problem('Invalid parameters'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, query }) => ({
  status: 200,
  body: { data: await chatAdmin.failed(tenantId, query.limit) },
}));
