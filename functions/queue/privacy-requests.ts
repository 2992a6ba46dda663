import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { logger } from '../../shared/logger.js';
import { count, flushMetrics } from '../../shared/metrics.js';
import { MAX_RECEIVE_COUNT, receiveCount } from '../../shared/queues.js';
import { PrivacyMessage } from '../../shared/privacy/schema.js';
import { privacy } from '../../shared/adapters/wiring/privacy.js';

const processor = new BatchProcessor(EventType.SQS);

/** PrivacyQueue consumer: each record one privacy request (export or erase); a failure is tried again, five times. */
export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  logger.addContext(context);
  const outcomes: Record<string, number> = {};
  const response = await processPartialResponse(
    event,
    async (record: SQSRecord) => {
      const { tenantId, requestId, recheck } = v.parse(PrivacyMessage, JSON.parse(record.body));
      const lastTry = receiveCount(record) >= MAX_RECEIVE_COUNT;
      const outcome = await privacy.process(tenantId, requestId, { lastTry, recheck: recheck === true });
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    },
    processor,
    { context, throwOnFullBatchFailure: false },
  );
  for (const [outcome, n] of Object.entries(outcomes)) count('PrivacyRequests', outcome, n, 'outcome');
  logger.info('Privacy requests', { records: event.Records.length, ...outcomes, failed: response.batchItemFailures.length });
  flushMetrics();
  return { batchItemFailures: [...response.batchItemFailures] };
};
