import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger, malformedReason } from '../logger.js';
import { count, flushMetrics, takeMetrics, type MetricName } from '../metrics.js';
import { receiveCount, type EachRecord, type QueueRecord } from '../queues.js';

export interface QueueSpec {
  /** The message of the batch's one INFO line (the records' own lines are DEBUG; failures are errors where they happen). */
  log: string;
  /** Counts each record's outcome under this metric, one metric per outcome (`EventDeliveries.sent`). */
  outcomes?: MetricName;
  /** Counts the records that go back to the queue: as ConsumerRecordFailures, or as the outcome `failed` of `outcomes`. */
  failures?: 'ConsumerRecordFailures' | 'outcome';
}

/**
 * The one wrapper every SQS consumer uses, to match httpHandler: each record processed on its own (Powertools' partial
 * batch processing: a record that throws goes back to the queue alone), outcomes counted, one INFO line per batch
 * that carries the batch's metrics (embedded metric format): log bytes are billed, so a batch writes one line, not
 * one more per metric.
 */
export const queueHandler = <O extends string>(spec: QueueSpec, processRecord: (record: QueueRecord) => Promise<O>) =>
  batchQueueHandler<O>(spec, (_records, eachRecord) => eachRecord(processRecord));

/**
 * The same for a consumer that works on the batch as a whole (reads it at once, sends its messages together):
 * `consume` runs its records through `eachRecord` and answers the message ids that go back to the queue.
 */
export function batchQueueHandler<O extends string>(
  spec: QueueSpec,
  consume: (records: QueueRecord[], eachRecord: EachRecord<O>) => Promise<string[]>,
) {
  // Kept between invocations, as Powertools expects: processPartialResponse clears it at each batch.
  const processor = new BatchProcessor(EventType.SQS);
  return async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    logger.addContext(context);
    const outcomes: Record<string, number> = {};
    const eachRecord: EachRecord<O> = async (processRecord) => {
      const { batchItemFailures } = await processPartialResponse(
        event,
        async (record: SQSRecord) => {
          let outcome: O;
          try {
            outcome = await processRecord(record);
          } catch (error) {
            logMalformed(error, record);
          }
          outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
        },
        processor,
        { context, throwOnFullBatchFailure: false },
      );
      return batchItemFailures.map((failure) => failure.itemIdentifier);
    };
    try {
      const failed = await consume(event.Records, eachRecord);
      if (spec.outcomes) for (const [outcome, n] of Object.entries(outcomes)) count(spec.outcomes, outcome, n);
      if (failed.length && spec.failures === 'ConsumerRecordFailures') count('ConsumerRecordFailures', undefined, failed.length);
      if (failed.length && spec.failures === 'outcome' && spec.outcomes) count(spec.outcomes, 'failed', failed.length);
      // The batch's one line is also its metrics' one EMF document: a line per batch, not one more per dimension value.
      logger.info(spec.log, { records: event.Records.length, ...outcomes, failed: failed.length, ...takeMetrics() });
      // A new answer each time (the processor keeps its own between invocations).
      return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
    } finally {
      flushMetrics();
    }
  };
}

/**
 * A message that is not JSON, or not its queue's shape, is logged once with where it is wrong (never a value of it),
 * then goes back to the queue like any failure (the dead-letter queue keeps it after the retries). Other failures are
 * logged where they happen.
 */
function logMalformed(error: unknown, record: SQSRecord): never {
  const reason = malformedReason(error);
  if (reason) logger.error('Malformed message', { messageId: record.messageId, receives: receiveCount(record), reason });
  throw error;
}
