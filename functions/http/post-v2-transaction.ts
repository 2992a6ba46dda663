import { configuredSecret } from '../../shared/adapters/secrets.js';
import { sendMessage } from '../../shared/adapters/sqs.js';
import { ENV, requireEnvs } from '../../shared/config.js';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { count } from '../../shared/metrics.js';
import { transactionMessage } from '../../shared/transactions/accept.js';
import { publicRequestId } from '../../shared/transactions/request-key.js';
import { V2TransactionBody } from '../../shared/transactions/requests.js';

requireEnvs(ENV.transactionQueueUrl);
const requestIdSecret = await configuredSecret(ENV.requestIdSecret);

/** Checks the shape, queues what was validated and answers 201 with the sent object. No DynamoDB call. */
export const contract = {
  body: V2TransactionBody,
  responses: {
    201: answer('Queued; the body is the sent object, the x-request-id header names the request'),
    400: problem('Invalid payload, or too large to queue: every problem listed'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, body, sent }) => {
  const message = transactionMessage(tenantId, body, new Date());
  await sendMessage('transactions', message);
  count('TransactionsAccepted');
  return { status: 201, body: sent, headers: { 'x-request-id': publicRequestId(tenantId, message.requestId, requestIdSecret()) } };
});
