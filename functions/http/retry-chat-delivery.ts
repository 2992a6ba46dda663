import * as v from 'valibot';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { chatRetries } from '../../shared/adapters/wiring/chat.js';

const Path = v.strictObject({
  id: v.pipe(
    v.string('must be a string'),
    v.regex(/^dlv_[\w-]{32}$/, 'must be a delivery id (dlv_ and 32 characters) from the failed chat messages list'),
  ),
});

/** Re-sends one failed chat message now (queued at once, sent once, not retried again); written to the audit log. */
export const contract = {
  admin: 'tenant' as const,
  path: Path,
  statuses: { forbidden: 403, validation: 422 },
  responses: {
    202: answer('Queued to be sent again now', v.object({ id: v.string(), status: v.literal('replaying') })),
    403: problem(NOT_TENANT_ADMIN),
    404: problem('No failed chat message has this id'),
    409: problem('The chat message is not failed: it was sent since'),
    422: problem('Invalid delivery id'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, path, actor }) => ({
  status: 202,
  body: await chatRetries.retry(tenantId, path.id, actor),
}));
