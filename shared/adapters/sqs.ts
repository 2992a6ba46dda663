import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { requireEnv } from '../config.js';
import { logger } from '../logger.js';
import { QUEUES, type QueueId } from '../queues.js';

let client: SQSClient | undefined;

/** The one SQS client of the process, created on first use. */
export const sqs = (): SQSClient => (client ??= new SQSClient({}));

/** Sends one JSON message to a queue named by the environment; returns its message id. */
export async function sendMessage(queue: QueueId, body: unknown, delaySeconds = 0): Promise<string | undefined> {
  const { MessageId } = await sqs().send(
    new SendMessageCommand({
      QueueUrl: requireEnv(QUEUES[queue].urlEnv),
      MessageBody: JSON.stringify(body),
      ...(delaySeconds > 0 ? { DelaySeconds: delaySeconds } : {}),
    }),
  );
  return MessageId;
}

/**
 * Sends JSON messages to a queue (each delayed by `delayOf`), ten to a SendMessageBatch request (a tenth of the price of one request each).
 * Returns the indexes of the messages that were not sent; a request that fails leaves all of its ten unsent.
 */
export async function sendMessages(queue: QueueId, bodies: unknown[], delayOf: (body: unknown) => number = () => 0): Promise<number[]> {
  const queueUrl = requireEnv(QUEUES[queue].urlEnv);
  const chunks = Array.from({ length: Math.ceil(bodies.length / 10) }, (_, c) =>
    bodies.slice(c * 10, c * 10 + 10).map((body, i) => ({ index: c * 10 + i, body })),
  );
  const unsent = await Promise.all(
    chunks.map(async (chunk) => {
      try {
        const { Failed = [] } = await sqs().send(
          new SendMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: chunk.map(({ index, body }) => {
              const delay = delayOf(body);
              return { Id: String(index), MessageBody: JSON.stringify(body), ...(delay > 0 ? { DelaySeconds: delay } : {}) };
            }),
          }),
        );
        return Failed.map((failure) => Number(failure.Id));
      } catch (error) {
        logger.warn('SendMessageBatch failed', { queue, messages: chunk.length, error });
        return chunk.map(({ index }) => index);
      }
    }),
  );
  return unsent.flat();
}
