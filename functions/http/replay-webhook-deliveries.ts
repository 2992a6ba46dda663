import * as v from 'valibot';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { dateTime } from '../../shared/schema.js';
import { deliveryReplay } from '../../shared/adapters/wiring/events.js';
import { REPLAY_PAGE } from '../../shared/tenants/webhook-replay.js';

const Body = v.strictObject({
  endpoint: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(2000, 'must be at most 2000 characters')),
  // A day stays a day (from its start); a date-time becomes UTC, as the events' times are.
  since: v.pipe(
    dateTime,
    v.transform((value) => (value.length === 10 ? value : new Date(value).toISOString())),
  ),
  cursor: v.optional(v.pipe(v.string('must be a string'), v.maxLength(4096, 'must be at most 4096 characters'))),
});

/**
 * Re-queues every failed delivery to one endpoint of an event created at or after `since`, at most REPLAY_PAGE a call
 * (`next_cursor` continues); each is claimed once, so a delivery is sent once however often this is called.
 */
export const contract = {
  admin: true as const,
  body: Body,
  statuses: { forbidden: 403 },
  responses: {
    202: answer(
      `Queued to be sent again now (at most ${REPLAY_PAGE}; next_cursor continues)`,
      v.object({ replayed: v.array(v.string()), next_cursor: v.nullable(v.string()) }),
    ),
    400: problem('Invalid body (errors names each wrong field)'),
    403: problem('Not an admin key'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, body, keyId }) => ({
  status: 202,
  body: await deliveryReplay.replay(
    tenantId,
    { url: body.endpoint, since: body.since, cursor: body.cursor },
    { keyId: keyId ?? 'unknown' },
  ),
}));
