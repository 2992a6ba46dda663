import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { requireEnv } from '../config.js';
import { QUEUES, type QueueId } from '../queues.js';

let client: SQSClient | undefined;

/** Sends one JSON message to a queue named by the environment; returns its message id. */
export async function sendMessage(queue: QueueId, body: unknown): Promise<string | undefined> {
  client ??= new SQSClient({});
  const { MessageId } = await client.send(new SendMessageCommand({ QueueUrl: requireEnv(QUEUES[queue].urlEnv), MessageBody: JSON.stringify(body) }));
  return MessageId;
}
