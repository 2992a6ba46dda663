import { ENV } from '../../shared/config.js';
import { loadSecrets } from '../../shared/adapters/secrets.js';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { V2TransactionBody } from '../../shared/transactions/v2-request.js';
import { transactionIntake } from '../../shared/adapters/wiring/transactions.js';

// The request id it answers is signed with this secret: read at cold start, never on a request.
await loadSecrets(ENV.requestIdSecret);

/** Checks the shape, queues what was validated and answers 201 with the sent object. No DynamoDB call. */
export const contract = {
  body: V2TransactionBody,
  responses: {
    201: answer(
      'Queued; the body is the sent object, the x-request-id header names the request (GET /v2/transactions/requests/{requestId} follows it)',
      V2TransactionBody,
    ),
    400: problem('Invalid payload, or too large to queue: every problem listed'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, body, sent }) => ({
  status: 201,
  body: sent,
  headers: { 'x-request-id': await transactionIntake.acceptTransaction(tenantId, body) },
}));
