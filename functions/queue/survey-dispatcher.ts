import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { configured, ENV } from '../../shared/config.js';
import { logger } from '../../shared/logger.js';
import { count, flushMetrics } from '../../shared/metrics.js';
import { dispatchRecord } from '../../shared/surveys/dispatcher.js';
import { surveyDelivery as ports } from '../../shared/adapters/wiring/survey-delivery.js';

const surveySecret = configured(ENV.surveySecret);
const baseUrl = configured(ENV.surveyBaseUrl);
const processor = new BatchProcessor(EventType.SQS);

/** SurveyDispatchQueue consumer: each record one survey attempt; records that fail go back one by one. */
export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  logger.addContext(context);
  const config = { surveySecret: surveySecret(), baseUrl: baseUrl() };
  const response = await processPartialResponse(event, (record: SQSRecord) => dispatchRecord(record, ports, config), processor, {
    context,
    throwOnFullBatchFailure: false,
  });
  if (response.batchItemFailures.length) count('ConsumerRecordFailures', undefined, response.batchItemFailures.length);
  flushMetrics();
  return { batchItemFailures: [...response.batchItemFailures] };
};
