import * as v from 'valibot';
import { httpHandler } from '../../shared/http/handler.js';
import { REQUEST_KEY_PATTERN } from '../../shared/transactions/request-key.js';
import { requestOutcome } from '../../shared/transactions/service.js';

const RequestPath = v.strictObject({ requestId: v.pipe(v.string(), v.regex(REQUEST_KEY_PATTERN, 'must be an x-request-id returned by POST /v2/transactions')) });

/** Whether a queued transaction was created or rejected, and why. */
export const handler = httpHandler({ path: RequestPath }, async ({ tenantId, path }) => ({
  status: 200,
  body: await requestOutcome(tenantId, path.requestId),
}));
