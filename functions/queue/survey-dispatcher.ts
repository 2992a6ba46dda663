import { configuredSecret } from '../../shared/adapters/secrets.js';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { configured, ENV } from '../../shared/config.js';
import { logger } from '../../shared/logger.js';
import { count, flushMetrics } from '../../shared/metrics.js';
import { dispatchRecord } from '../../shared/surveys/dispatcher.js';
import { surveyDelivery as ports } from '../../shared/adapters/wiring/survey-delivery.js';

const surveySecret = await configuredSecret(ENV.surveySecret);
const baseUrl = configured(ENV.surveyBaseUrl);
const processor = new BatchProcessor(EventType.SQS);

/** SurveyDispatchQueue consumer: each record one survey attempt; records that fail go back one by one. */
export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  logger.addContext(context);
  const config = { surveySecret: surveySecret(), baseUrl: baseUrl() };
  const outcomes: Record<string, number> = {};
  const response = await processPartialResponse(
    event,
    async (record: SQSRecord) => {
      const outcome = await dispatchRecord(record, ports, config);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    },
    processor,
    { context, throwOnFullBatchFailure: false },
  );
  if (response.batchItemFailures.length) count('ConsumerRecordFailures', undefined, response.batchItemFailures.length);
  // One line per batch at INFO; each attempt's own line is DEBUG, failures are errors where they happen.
  logger.info('Survey dispatch batch', { records: event.Records.length, ...outcomes, failed: response.batchItemFailures.length });
  flushMetrics();
  return { batchItemFailures: [...response.batchItemFailures] };
};
