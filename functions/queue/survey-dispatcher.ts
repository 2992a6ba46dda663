import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as v from 'valibot';
import { ENV, requireEnv } from '../../shared/config.js';
import { logger } from '../../shared/logger.js';
import { count, flushMetrics } from '../../shared/metrics.js';
import { deliverSurvey } from '../../shared/surveys/delivery.js';
import { DispatchMessage } from '../../shared/surveys/dispatch.js';
import { surveyDelivery as ports } from '../../shared/wiring.js';

const config = { surveySecret: requireEnv(ENV.surveySecret), baseUrl: requireEnv(ENV.surveyBaseUrl) };
const processor = new BatchProcessor(EventType.SQS);

/**
 * SurveyDispatchQueue consumer: each record is one survey attempt, sent on its channel once. A message that is not
 * a dispatch message, and a provider's throttling or 5xx, fail the record: it comes back, and reaches the DLQ after
 * 5 receives.
 */
async function deliver(record: SQSRecord): Promise<void> {
  const receives = Number(record.attributes?.ApproximateReceiveCount ?? 1);
  const parsed = v.safeParse(DispatchMessage, safeJson(record.body));
  if (!parsed.success) {
    logger.error('Not a survey dispatch message', { messageId: record.messageId, receives });
    throw new Error('Not a survey dispatch message.');
  }
  const { tenantId, transactionId, attemptId, channel } = parsed.output;
  try {
    const outcome = await deliverSurvey(parsed.output, ports, config);
    if (outcome !== 'sent') logger.info('Survey attempt not sent now', { tenantId, transactionId, attemptId, channel, outcome });
  } catch (error) {
    // The name and status only: providers' messages may quote the address they refused.
    const name = error instanceof Error ? error.name : typeof error;
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    logger.error('Survey delivery failed; the message goes back to the queue', {
      messageId: record.messageId,
      receives,
      tenantId,
      transactionId,
      attemptId,
      channel,
      error: { name, status },
    });
    throw error;
  }
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  logger.addContext(context);
  const response = await processPartialResponse(event, deliver, processor, { context, throwOnFullBatchFailure: false });
  if (response.batchItemFailures.length) count('ConsumerRecordFailures', undefined, response.batchItemFailures.length);
  flushMetrics();
  return { batchItemFailures: [...response.batchItemFailures] };
};
