import { CreateQueueCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redrive } from '../../infra/redrive.js';

describe('redrive', () => {
  it("moves a dead-letter queue's messages back to their queue (by hand where the server has no move task)", async () => {
    const sqs = new SQSClient({});
    const name = `redrive-${randomUUID()}`;
    const sourceUrl = (await sqs.send(new CreateQueueCommand({ QueueName: name }))).QueueUrl!;
    const dlqUrl = (await sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }))).QueueUrl!;
    for (let i = 0; i < 13; i++) await sqs.send(new SendMessageCommand({ QueueUrl: dlqUrl, MessageBody: `m${i}` }));

    expect(await redrive(sqs, dlqUrl, sourceUrl)).toMatch(/13 messages|move task started/);

    const bodies: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: sourceUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }),
      );
      bodies.push(...Messages.map((m) => m.Body!));
    }
    expect(bodies.sort()).toEqual(Array.from({ length: 13 }, (_, i) => `m${i}`).sort());
    const left = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlqUrl, MaxNumberOfMessages: 10 }));
    expect(left.Messages ?? []).toEqual([]);
  });
});
