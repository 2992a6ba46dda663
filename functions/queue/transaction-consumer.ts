import { ENV } from '../../shared/config.js';
import { loadSecrets } from '../../shared/adapters/secrets.js';
import { batchQueueHandler } from '../../shared/queue/handler.js';
import { transactionConsumer } from '../../shared/adapters/wiring/transactions.js';

// The rejection events carry the request id the client was given, signed with this secret: read at cold start.
await loadSecrets(ENV.requestIdSecret);

/**
 * TransactionQueue consumer: the batch is read at once, its survey messages are sent together, and records that fail
 * go back one by one (batchItemFailures).
 */
export const handler = batchQueueHandler(
  { log: 'Transaction batch', failures: 'ConsumerRecordFailures' },
  transactionConsumer.consumeBatch,
);
