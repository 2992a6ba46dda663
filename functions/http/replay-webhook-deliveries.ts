import * as v from 'valibot';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { deliveryReplay } from '../../shared/adapters/wiring/events.js';
import { REPLAY_PAGE, ReplayBody } from '../../shared/events/webhook-replay.js';

/**
 * Re-queues every failed delivery to one endpoint of an event created at or after `since`, at most REPLAY_PAGE a call
 * (`next_cursor` continues); each is claimed once, so a delivery is sent once however often this is called.
 */
export const contract = {
  admin: 'tenant' as const,
  body: ReplayBody,
  statuses: { forbidden: 403 },
  responses: {
    202: answer(
      `Queued to be sent again now (at most ${REPLAY_PAGE}; next_cursor continues)`,
      v.object({ replayed: v.array(v.string()), next_cursor: v.nullable(v.string()) }),
    ),
    400: problem('Invalid body (errors names each wrong field)'),
    403: problem(NOT_TENANT_ADMIN),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, body, actor }) => ({
  status: 202,
  body: await deliveryReplay.replay(tenantId, { url: body.endpoint, since: body.since, cursor: body.cursor }, actor),
}));
