import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { ENV, requireEnvs } from '../../shared/config.js';
import { deliverEvent } from '../../shared/events/events.js';
import type { EventDelivery } from '../../shared/events/ports.js';
import { logger } from '../../shared/logger.js';
import { count, flushMetrics } from '../../shared/metrics.js';
import { deliveryPorts } from '../../shared/adapters/wiring/events.js';
import { loadSecrets } from '../../shared/adapters/secrets.js';

requireEnvs(ENV.eventQueueUrl);
// Each tenant's webhook secret derives from the survey secret.
await loadSecrets(ENV.surveySecret);
const ports = deliveryPorts();
const processor = new BatchProcessor(EventType.SQS);

/** EventQueue consumer: each record one event for one endpoint; a failure is retried later, then dead-lettered. */
export const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
  logger.addContext(context);
  const outcomes: Record<string, number> = {};
  const response = await processPartialResponse(
    event,
    async (record: SQSRecord) => {
      const outcome = await deliverEvent(JSON.parse(record.body) as EventDelivery, ports);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    },
    processor,
    { context, throwOnFullBatchFailure: false },
  );
  for (const [outcome, n] of Object.entries(outcomes)) count('EventDeliveries', outcome, n, 'outcome');
  if (response.batchItemFailures.length) count('EventDeliveries', 'failed', response.batchItemFailures.length, 'outcome');
  logger.info('Event deliveries', { records: event.Records.length, ...outcomes, failed: response.batchItemFailures.length });
  flushMetrics();
  return { batchItemFailures: [...response.batchItemFailures] };
};
