import { answer, problem } from '../../shared/http/contract.js';
import { sendMessage } from '../../shared/adapters/sqs.js';
import { httpHandler } from '../../shared/http/handler.js';
import { count } from '../../shared/metrics.js';
import type { TransactionMessage } from '../../shared/transactions/message.js';
import { requestKeyFor } from '../../shared/transactions/request-key.js';
import { fromV2, V2TransactionBody } from '../../shared/transactions/requests.js';

/** Seed 4.4: checks the shape, queues the transaction and answers 201 with the sent object. No DynamoDB call. */
export const contract = { body: V2TransactionBody, responses: { 201: answer('Queued; the body is the sent object, the x-request-id header names the request'), 400: problem('Invalid payload: every problem listed') } };

export const handler = httpHandler(contract, async ({ tenantId, body, sent }) => {
  const requestId = requestKeyFor(fromV2(body));
  const message: TransactionMessage = { version: 1, tenantId, requestId, receivedAt: new Date().toISOString(), payload: sent };
  await sendMessage('transactions', message);
  count('TransactionsAccepted');
  return { status: 201, body: sent, headers: { 'x-request-id': requestId } };
});
