import * as v from 'valibot';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { DigestRequestBody } from '../../shared/digest/schema.js';
import { digestSending } from '../../shared/adapters/wiring/digest.js';

/** Queues the current period's digest for every user who gets it; each user's is claimed once, so posting twice sends one. */
export const contract = {
  admin: 'tenant' as const,
  body: DigestRequestBody,
  statuses: { forbidden: 403 },
  responses: {
    202: answer('Queued: how many digests (one per user with an e-mail who has not opted out)', v.object({ queued: v.number() })),
    400: problem('Invalid body (errors names each wrong field)'),
    403: problem(NOT_TENANT_ADMIN),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, body }) => ({
  status: 202,
  body: { queued: await digestSending.queue(tenantId, body.period) },
}));
