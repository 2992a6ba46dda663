import { ValidationError } from '../errors.js';
import type { TransactionMessage } from './message.js';
import { requestKeyFor } from './request-key.js';
import { fromV2, type V2TransactionBody } from './v2-request.js';

/** The largest message the transaction queue takes (SQS's limit). */
export const MAX_MESSAGE_BYTES = 256 * 1024;

/**
 * The queue message of an accepted v2 transaction: the body as validated (trimmed, normalised), never the raw text,
 * so that what the consumer reads is what was checked. A message the queue could not take is refused here.
 */
export function transactionMessage(tenantId: number, body: V2TransactionBody, receivedAt: Date): TransactionMessage {
  const message: TransactionMessage = {
    version: 1,
    tenantId,
    requestId: requestKeyFor(fromV2(body)),
    receivedAt: receivedAt.toISOString(),
    payload: body,
  };
  if (Buffer.byteLength(JSON.stringify(message)) > MAX_MESSAGE_BYTES) {
    throw new ValidationError('The transaction is too large to queue.', [
      { path: 'body', message: `must be at most ${MAX_MESSAGE_BYTES} bytes once validated` },
    ]);
  }
  return message;
}

/** Where an accepted transaction goes, and how its request key becomes the id the client is given. */
export interface IntakePorts {
  queue: (message: TransactionMessage) => Promise<void>;
  requestIdOf: (tenantId: number, requestKey: string) => string;
}

/** Accepting v2 transactions: no table, one queue message each. */
export function transactionIntake({ queue, requestIdOf }: IntakePorts) {
  /** Queues the transaction; answers the request id its client follows it by. */
  async function acceptTransaction(tenantId: number, body: V2TransactionBody, receivedAt = new Date()): Promise<string> {
    const message = transactionMessage(tenantId, body, receivedAt);
    // Counted by no metric of ours: each accepted transaction is one SendMessage, which SQS counts
    // (NumberOfMessagesSent of TransactionQueue), as API Gateway and Lambda count the requests; a line per request
    // would cost more than the request's own Lambda time (docs/performance.md).
    await queue(message);
    return requestIdOf(tenantId, message.requestId);
  }
  return { acceptTransaction };
}
