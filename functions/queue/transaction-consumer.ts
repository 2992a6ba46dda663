import { batchQueueHandler } from '../../shared/queue/handler.js';
import { transactionConsumer } from '../../shared/adapters/wiring/transaction-requests.js';

/**
 * TransactionQueue consumer: the batch is read at once, its survey messages are sent together, and records that fail
 * go back one by one (batchItemFailures).
 */
export const handler = batchQueueHandler(
  { log: 'Transaction batch', failures: 'ConsumerRecordFailures' },
  transactionConsumer.consumeBatch,
);
