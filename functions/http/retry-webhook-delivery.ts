import * as v from 'valibot';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { deliveryReplay } from '../../shared/adapters/wiring/events.js';

const Path = v.strictObject({
  id: v.pipe(
    v.string('must be a string'),
    v.regex(/^dlv_[\w-]{32}$/, 'must be a delivery id (dlv_ and 32 characters) from the failed deliveries list'),
  ),
});

/** Re-sends one failed delivery now (queued at once, signed again, under its event's id); written to the audit log. */
export const contract = {
  admin: 'tenant' as const,
  path: Path,
  statuses: { forbidden: 403, validation: 422 },
  responses: {
    202: answer('Queued to be sent again now', v.object({ id: v.string(), status: v.literal('replaying') })),
    403: problem(NOT_TENANT_ADMIN),
    404: problem('No failed delivery has this id'),
    409: problem('The delivery is not failed: it was delivered since'),
    422: problem('Invalid delivery id'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, path, actor }) => ({
  status: 202,
  body: await deliveryReplay.retry(tenantId, path.id, actor),
}));
