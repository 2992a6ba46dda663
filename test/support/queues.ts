import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, DeleteQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { invoke } from '../../infra/local/invoke.js';
import { handler as consumer } from '../../functions/queue/transaction-consumer.js';
import { QUEUES, type QueueId } from '../../shared/queues.js';
import { afterAll, beforeAll } from 'vitest';

const sqs = () => new SQSClient({});

export interface PrivateQueue {
  url: string;
  /** Every message sent since the last call. */
  drain(): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/**
 * Points this process's sends to a queue (functions read queue URLs from the environment at send time) at a queue
 * of its own, so that no other test, and not the local stack's consumer, takes its messages; reads them back.
 */
export async function privateQueue(queue: QueueId): Promise<PrivateQueue> {
  const client = sqs();
  const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: `${queue}-${randomUUID()}` }));
  const previous = process.env[QUEUES[queue].urlEnv];
  process.env[QUEUES[queue].urlEnv] = QueueUrl!;
  return {
    url: QueueUrl!,
    async drain() {
      const bodies: Record<string, unknown>[] = [];
      for (;;) {
        const { Messages = [] } = await client.send(
          new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 300 }),
        );
        if (!Messages.length) return bodies;
        bodies.push(...Messages.map((m) => JSON.parse(m.Body!) as Record<string, unknown>));
      }
    },
    async close() {
      process.env[QUEUES[queue].urlEnv] = previous;
      await client.send(new DeleteQueueCommand({ QueueUrl }));
      client.destroy();
    },
  };
}

/** A private queue for the test file calling it: created before its tests, removed after. */
export function usePrivateQueue(queue: QueueId): PrivateQueue {
  const handle = {} as PrivateQueue;
  beforeAll(async () => {
    Object.assign(handle, await privateQueue(queue));
  });
  afterAll(() => handle.close());
  return handle;
}

/** An SQS batch of these bodies as the event source hands it to a consumer (message ids m-0, m-1...). */
export function sqsEvent(bodies: unknown[], { receiveCount = 1, queue = 'TransactionQueue' } = {}): SQSEvent {
  return {
    Records: bodies.map((body, i) => ({
      messageId: `m-${i}`,
      receiptHandle: `r-${i}`,
      body: typeof body === 'string' ? body : JSON.stringify(body),
      attributes: {
        ApproximateReceiveCount: String(receiveCount),
        SentTimestamp: String(Date.now()),
        SenderId: 'test',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:local:000000000000:${queue}`,
      awsRegion: 'local',
    })),
  };
}

/** Invokes the transaction consumer with one SQS batch of these message bodies, as the event source would. */
export async function consume(
  bodies: unknown[],
  { receiveCount = 1 }: { receiveCount?: number } = {},
): Promise<{ failed: number[]; response: SQSBatchResponse }> {
  const response = await invoke('transactionConsumer', consumer, sqsEvent(bodies, { receiveCount }));
  return { failed: response.batchItemFailures.map((f) => Number(f.itemIdentifier.slice(2))), response };
}
