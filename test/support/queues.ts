import { randomUUID } from 'node:crypto';
import { CreateQueueCommand, DeleteQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { lambdaContext } from '../../infra/local/events.js';
import { handler as consumer } from '../../functions/queue/transaction-consumer.js';
import { QUEUES } from '../../shared/queues.js';

const sqs = () => new SQSClient({});

/**
 * Points this test file's survey dispatches at a queue of its own (functions read the queue URL from the
 * environment at send time), and reads back what was sent to it.
 */
export async function privateDispatchQueue() {
  const client = sqs();
  const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: `dispatch-${randomUUID()}` }));
  const previous = process.env[QUEUES.surveyDispatch.urlEnv];
  process.env[QUEUES.surveyDispatch.urlEnv] = QueueUrl!;
  return {
    /** Every message sent since the last call. */
    async drain(): Promise<Record<string, unknown>[]> {
      const bodies: Record<string, unknown>[] = [];
      for (;;) {
        const { Messages = [] } = await client.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 300 }));
        if (!Messages.length) return bodies;
        bodies.push(...Messages.map((m) => JSON.parse(m.Body!) as Record<string, unknown>));
      }
    },
    async close() {
      process.env[QUEUES.surveyDispatch.urlEnv] = previous;
      await client.send(new DeleteQueueCommand({ QueueUrl }));
      client.destroy();
    },
  };
}

/** Invokes the transaction consumer with one SQS batch of these message bodies, as the event source would. */
export async function consume(bodies: unknown[]): Promise<{ failed: number[]; response: SQSBatchResponse }> {
  const event: SQSEvent = {
    Records: bodies.map((body, i) => ({
      messageId: `m-${i}`,
      receiptHandle: `r-${i}`,
      body: typeof body === 'string' ? body : JSON.stringify(body),
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: 'test', ApproximateFirstReceiveTimestamp: String(Date.now()) },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:local:000000000000:TransactionQueue',
      awsRegion: 'local',
    })),
  };
  const response = await consumer(event, lambdaContext('transactionConsumer'));
  return { failed: response.batchItemFailures.map((f) => Number(f.itemIdentifier.slice(2))), response };
}
