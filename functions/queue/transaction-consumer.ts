import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../shared/logger.js';
import { count, flushMetrics } from '../../shared/metrics.js';
import { prepareBatch, processTransactionRecord } from '../../shared/transactions/consumer.js';

const processor = new BatchProcessor(EventType.SQS);

/** TransactionQueue consumer: the batch is read at once, and records that fail go back one by one (batchItemFailures). */
export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  logger.addContext(context);
  const prepared = await prepareBatch(event.Records);
  const response = await processPartialResponse(event, (record: SQSRecord) => processTransactionRecord(record, prepared.get(record.messageId)), processor, { context, throwOnFullBatchFailure: false });
  if (response.batchItemFailures.length) count('ConsumerRecordFailures', undefined, response.batchItemFailures.length);
  flushMetrics();
  return response;
};
