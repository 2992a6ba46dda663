import { configuredSecret } from '../../shared/adapters/secrets.js';
import * as v from 'valibot';
import { ENV } from '../../shared/config.js';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { transactionQueries } from '../../shared/adapters/wiring/transactions.js';
import { REQUEST_ID_SHAPE } from '../../shared/transactions/request-key.js';
import { RequestOutcomeBody } from '../../shared/transactions/schema.js';

const requestIdSecret = await configuredSecret(ENV.requestIdSecret);

const RequestPath = v.strictObject({
  requestId: v.pipe(v.string(), v.regex(REQUEST_ID_SHAPE, 'must be an x-request-id returned by POST /v2/transactions')),
});

/** Whether a queued transaction was created, rejected or given up on, and why. */
export const contract = {
  path: RequestPath,
  responses: {
    200: answer('What became of the request', RequestOutcomeBody),
    400: problem('Not a request id'),
    404: problem('No such request for this tenant'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, path }) => ({
  status: 200,
  body: await transactionQueries.requestOutcome(tenantId, path.requestId, requestIdSecret()),
}));
