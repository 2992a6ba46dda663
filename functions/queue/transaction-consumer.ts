import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { SQSEvent, SQSBatchResponse, Context } from 'aws-lambda';
import { logger } from '../../shared/logger.js';
import { count, flushMetrics } from '../../shared/metrics.js';
import { processTransactionRecord } from '../../shared/transactions/consumer.js';

const processor = new BatchProcessor(EventType.SQS);

/** TransactionQueue consumer: records that fail go back one by one (batchItemFailures). */
export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  logger.addContext(context);
  const response = await processPartialResponse(event, processTransactionRecord, processor, { context, throwOnFullBatchFailure: false });
  if (response.batchItemFailures.length) count('ConsumerRecordFailures', undefined, response.batchItemFailures.length);
  flushMetrics();
  return response;
};
