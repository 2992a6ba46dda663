import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { describeError, logger } from '../../shared/logger.js';
import { count, flushMetrics } from '../../shared/metrics.js';
import { MAX_RECEIVE_COUNT, receiveCount } from '../../shared/queues.js';
import { PrivacyMessage } from '../../shared/privacy/schema.js';
import { privacyRequests } from '../../shared/adapters/privacy-repository.js';
import { privacy } from '../../shared/adapters/wiring/privacy.js';

const processor = new BatchProcessor(EventType.SQS);

/**
 * PrivacyQueue consumer: each record one privacy request (export or erase). A failure goes back to the queue and is
 * tried again; on the last receive the request is marked failed, so that the tenant learns it must ask again.
 */
export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  logger.addContext(context);
  const outcomes: Record<string, number> = {};
  const response = await processPartialResponse(
    event,
    async (record: SQSRecord) => {
      const { tenantId, requestId } = v.parse(PrivacyMessage, JSON.parse(record.body));
      try {
        const outcome = await privacy.process(tenantId, requestId);
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      } catch (error) {
        const last = receiveCount(record) >= MAX_RECEIVE_COUNT;
        logger.error('Privacy request failed', { tenantId, privacyRequest: requestId, lastReceive: last, error: describeError(error) });
        if (last)
          await privacyRequests.finish(tenantId, requestId, {
            status: 'failed',
            subjects: [],
            finishedAt: new Date().toISOString(),
            errors: [{ path: '', message: 'the request could not be completed; submit it again' }],
          });
        throw error;
      }
    },
    processor,
    { context, throwOnFullBatchFailure: false },
  );
  for (const [outcome, n] of Object.entries(outcomes)) count('PrivacyRequests', outcome, n, 'outcome');
  logger.info('Privacy requests', { records: event.Records.length, ...outcomes, failed: response.batchItemFailures.length });
  flushMetrics();
  return { batchItemFailures: [...response.batchItemFailures] };
};
