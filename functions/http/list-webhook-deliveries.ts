import * as v from 'valibot';
import { answer, dataOf, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { integerString, instant, wholeNumber } from '../../shared/schema.js';
import { EVENT_TYPES } from '../../shared/events/ports.js';
import { failedDeliveries } from '../../shared/adapters/wiring/events.js';

const Query = v.strictObject({
  status: v.picklist(['failed'], 'must be failed (the deliveries kept are the failed ones)'),
  limit: v.optional(integerString(1, 100), '50'),
});

const FailedDeliveryBody = v.object({
  id: v.string(),
  event_id: v.string(),
  type: v.picklist(EVENT_TYPES),
  url: v.string(),
  attempt: wholeNumber,
  failed_at: instant,
  error: v.string(),
  next_attempt_at: v.nullable(instant),
});

/** The tenant's event deliveries that failed in the last 30 days, newest first: each try, and when the next is. */
export const contract = {
  query: Query,
  statuses: { validation: 422 },
  responses: {
    200: answer('Failed deliveries, newest first', dataOf(FailedDeliveryBody)),
    422: problem('Invalid parameters'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, query }) => ({
  status: 200,
  body: { data: await failedDeliveries.recent(tenantId, query.limit) },
}));
