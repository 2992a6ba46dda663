import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SQSClient,
  StartMessageMoveTaskCommand,
} from '@aws-sdk/client-sqs';

/**
 * Moves the messages of a dead-letter queue back to the queue they came from. On AWS this is SQS's own message
 * move task (StartMessageMoveTask); a server that does not offer it (the local one) gets the same done by hand:
 * receive, send back, delete, ten at a time.
 */
export async function redrive(client: SQSClient, dlqUrl: string, sourceUrl: string): Promise<string> {
  const { Attributes } = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['QueueArn', 'ApproximateNumberOfMessages'] }),
  );
  try {
    const { TaskHandle } = await client.send(new StartMessageMoveTaskCommand({ SourceArn: Attributes!.QueueArn! }));
    return `message move task started for about ${Attributes?.ApproximateNumberOfMessages ?? '?'} messages (task ${TaskHandle})`;
  } catch (error) {
    const name = (error as Error).name;
    if (!/UnsupportedOperation|InvalidAction|UnknownOperation|NotImplemented|InvalidParameterValue/i.test(name + (error as Error).message))
      throw error;
  }
  let moved = 0;
  for (;;) {
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({ QueueUrl: dlqUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 60 }),
    );
    if (!Messages.length) return `this SQS server has no message move task: moved ${moved} messages by hand`;
    await client.send(
      new SendMessageBatchCommand({ QueueUrl: sourceUrl, Entries: Messages.map((m, i) => ({ Id: String(i), MessageBody: m.Body! })) }),
    );
    await client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: dlqUrl,
        Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
      }),
    );
    moved += Messages.length;
  }
}

export async function queueUrl(client: SQSClient, name: string): Promise<string> {
  return (await client.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl!;
}
