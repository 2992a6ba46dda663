import { CreateQueueCommand, DeleteQueueCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The local SQS server answers a receive as SQS does (patches/local-aws-sqs+*.patch): a long poll returns as soon as a
 * message is there, not once its batch is full or its wait is over, and one answer never holds a message twice. Every
 * queue hop of the local stack (a registration, its survey, its e-mail) rides on this; before the patch each hop took
 * the poller's whole wait (5 s), and a message whose visibility lapsed during the wait came back in the same answer.
 */
const sqs = new SQSClient({});
const queues: string[] = [];
const newQueue = async () => {
  const url = (await sqs.send(new CreateQueueCommand({ QueueName: `receive-${randomUUID()}` }))).QueueUrl!;
  queues.push(url);
  return url;
};
afterAll(async () => {
  await Promise.all(queues.map((QueueUrl) => sqs.send(new DeleteQueueCommand({ QueueUrl }))));
  sqs.destroy();
});

describe('the local SQS server', () => {
  it('answers a long poll as soon as a message arrives, with what is there (not a full batch at the end of the wait)', async () => {
    const QueueUrl = await newQueue();
    const started = Date.now();
    const receiving = sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 10 }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'one' }));
    const { Messages = [] } = await receiving;
    expect(Messages.map((m) => m.Body)).toEqual(['one']);
    // SQS answers within milliseconds of the send; the bound is the wait's half, far from it on a loaded machine.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('never puts one message twice in an answer, even when its visibility lapses during the wait', async () => {
    const QueueUrl = await newQueue();
    await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: 'once' }));
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 3, VisibilityTimeout: 1 }),
    );
    expect(Messages.map((m) => m.Body)).toEqual(['once']);
  });
});
