import { DeleteMessageBatchCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { QUEUE_BATCH_SIZE, type QueueId } from '../../shared/queues.js';
import { consumers, scheduled } from '../routes.js';
import type { QueueUrls } from './setup.js';
import { runAs } from './iam.js';
import { invoke } from './invoke.js';
import { invokeAsync } from './async.js';
import { loadHandler } from './gateway.js';

/**
 * What the Lambda event source mapping does in AWS: receives batches of up to 10 from each consumer's queue,
 * invokes the consumer with a real SQSEvent, and deletes what it did not report in batchItemFailures. What is not
 * deleted comes back after the visibility timeout, and the queue's redrive policy moves it to the DLQ after 5
 * receives.
 */
export interface Poller {
  /** Stops or restarts receiving from one queue, as disabling its event source mapping does. */
  setEnabled(queue: QueueId, enabled: boolean): void;
  stop(): Promise<void>;
}

/**
 * How long a receive waits for a message (long polling: it answers as soon as one arrives). The event source mapping
 * waits 20 s; 5 keeps the fourteen idle consumers of a local run to about three receives a second.
 */
const RECEIVE_WAIT_SECONDS = 5;

export function startPoller(
  client: SQSClient,
  queueUrls: QueueUrls,
  options: { visibilityTimeoutSeconds: number; scheduledEverySeconds?: number; asyncFailureQueueUrl: string },
): Poller {
  let running = true;
  // Ends the receives waiting when the poller stops.
  const stopping = new AbortController();
  const disabled = new Set<QueueId>();
  // Scheduled functions run on a timer, more often than in AWS so that a local run need not wait a minute; invoked
  // as Lambda invokes them asynchronously: two retries, then a record on the async-failure queue.
  const timers = scheduled.map(async (job) => {
    const load = () => loadHandler(job.handler) as Promise<(event: unknown, context: unknown) => Promise<unknown>>;
    while (running) {
      try {
        const outcome = await invokeAsync(
          job.id,
          { load },
          { source: 'local.timer', time: new Date().toISOString() },
          {
            client,
            queueUrl: options.asyncFailureQueueUrl,
          },
        );
        if (outcome === 'failed') console.error(`local timer: ${job.id} failed three times; recorded on ${options.asyncFailureQueueUrl}`);
      } catch (error) {
        console.error(`local timer: ${job.id} failed, and so did recording it`, error);
      }
      for (let waited = 0; running && waited < (options.scheduledEverySeconds ?? 10) * 1000; waited += 250)
        await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });
  const loops = consumers.map(async (consumer) => {
    const queueUrl = queueUrls[consumer.queue];
    const load = () => loadHandler(consumer.handler) as Promise<(event: SQSEvent, context: unknown) => Promise<SQSBatchResponse>>;
    while (running) {
      if (disabled.has(consumer.queue)) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        continue;
      }
      try {
        // The event source mapping receives and deletes with the consumer's own role, as on AWS.
        const { Messages = [] } = await runAs(consumer.id, () =>
          client.send(
            new ReceiveMessageCommand({
              QueueUrl: queueUrl,
              MaxNumberOfMessages: QUEUE_BATCH_SIZE,
              WaitTimeSeconds: RECEIVE_WAIT_SECONDS,
              VisibilityTimeout: options.visibilityTimeoutSeconds,
              MessageSystemAttributeNames: ['All'],
            }),
            { abortSignal: stopping.signal },
          ),
        );
        if (!Messages.length) continue;
        const event: SQSEvent = {
          Records: Messages.map((m) => ({
            messageId: m.MessageId!,
            receiptHandle: m.ReceiptHandle!,
            body: m.Body ?? '',
            attributes: m.Attributes as SQSEvent['Records'][number]['attributes'],
            messageAttributes: {},
            md5OfBody: m.MD5OfBody ?? '',
            eventSource: 'aws:sqs',
            eventSourceARN: `arn:aws:sqs:local:000000000000:${consumer.queue}`,
            awsRegion: 'local',
          })),
        };
        let failed = new Set(Messages.map((m) => m.MessageId!));
        try {
          const response = await invoke(consumer.id, { load }, event);
          failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        } catch (error) {
          console.error(`local poller: ${consumer.id} failed; the whole batch returns to the queue`, error);
        }
        const done = Messages.filter((m) => !failed.has(m.MessageId!));
        if (done.length) {
          await runAs(consumer.id, () =>
            client.send(
              new DeleteMessageBatchCommand({
                QueueUrl: queueUrl,
                Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
              }),
            ),
          );
        }
      } catch (error) {
        if (running) {
          console.error(`local poller: receiving from ${consumer.queue} failed`, error);
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }
    }
  });
  return {
    setEnabled: (queue, enabled) => void (enabled ? disabled.delete(queue) : disabled.add(queue)),
    stop: async () => {
      running = false;
      stopping.abort();
      await Promise.allSettled([...loops, ...timers]);
    },
  };
}
