import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../shared/logger.js';
import { count, flushMetrics } from '../../shared/metrics.js';
import { dispatchOutbox, prepareBatch, processTransactionRecord } from '../../shared/adapters/wiring/transaction-consumer.js';

const processor = new BatchProcessor(EventType.SQS);

/**
 * TransactionQueue consumer: the batch is read at once, its survey messages are sent together, and records that fail
 * go back one by one (batchItemFailures).
 */
export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  logger.addContext(context);
  const prepared = await prepareBatch(event.Records);
  const outbox = dispatchOutbox();
  const outcomes: Record<string, number> = {};
  const processed = await processPartialResponse(
    event,
    async (record: SQSRecord) => {
      const outcome = await processTransactionRecord(record, prepared.get(record.messageId), outbox.for(record.messageId));
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    },
    processor,
    { context, throwOnFullBatchFailure: false },
  );
  const undelivered = await outbox.flush(new Set(processed.batchItemFailures.map((f) => f.itemIdentifier)));
  // A new answer (the processor keeps its own between invocations), its failures in the batch's order.
  const position = new Map(event.Records.map((record, i) => [record.messageId, i]));
  const failures = [...processed.batchItemFailures, ...undelivered.map((itemIdentifier) => ({ itemIdentifier }))];
  const response: SQSBatchResponse = {
    batchItemFailures: failures.sort((a, b) => position.get(a.itemIdentifier)! - position.get(b.itemIdentifier)!),
  };
  if (response.batchItemFailures.length) count('ConsumerRecordFailures', undefined, response.batchItemFailures.length);
  // One line per batch at INFO (the records' own lines are DEBUG; failures are logged as errors where they happen).
  logger.info('Transaction batch', { records: event.Records.length, ...outcomes, failed: response.batchItemFailures.length });
  flushMetrics();
  return response;
};
