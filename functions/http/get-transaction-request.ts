import { answer, problem } from '../../shared/http/contract.js';
import { RequestOutcomeBody } from '../../shared/transactions/schema.js';
import * as v from 'valibot';
import { httpHandler } from '../../shared/http/handler.js';
import { REQUEST_KEY_PATTERN } from '../../shared/transactions/request-key.js';
import { requestOutcome } from '../../shared/transactions/queries.js';

const RequestPath = v.strictObject({ requestId: v.pipe(v.string(), v.regex(REQUEST_KEY_PATTERN, 'must be an x-request-id returned by POST /v2/transactions')) });

/** Whether a queued transaction was created or rejected, and why. */
export const contract = { path: RequestPath, responses: { 200: answer('What became of the request', RequestOutcomeBody), 400: problem('Not a request id') } };

export const handler = httpHandler(contract, async ({ tenantId, path }) => ({
  status: 200,
  body: await requestOutcome(tenantId, path.requestId),
}));
