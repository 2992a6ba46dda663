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

/**
 * Invokes again, asynchronously, each failed invocation recorded on the async-failure queue: `reinvoke` gets the
 * record's function ARN and its event (`requestContext.functionArn`, `requestPayload`); each record it took is
 * deleted. A record that cannot be read, or whose invocation is refused, stays on the queue and is counted. An
 * invocation that fails again is retried twice by Lambda and recorded again, as the first one was.
 */
export async function redriveAsyncFailures(
  client: SQSClient,
  queueUrl: string,
  reinvoke: (functionArn: string, payload: unknown) => Promise<void>,
  hideSeconds = 300,
): Promise<string> {
  let invoked = 0;
  const left: string[] = [];
  for (;;) {
    // Hidden for the rest of the run, so that a record left behind is not read twice.
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: hideSeconds }),
    );
    if (!Messages.length) break;
    const done: typeof Messages = [];
    for (const message of Messages) {
      let record: { requestContext?: { functionArn?: unknown }; requestPayload?: unknown };
      try {
        record = JSON.parse(message.Body ?? '') as typeof record;
      } catch {
        record = {};
      }
      const functionArn = record.requestContext?.functionArn;
      if (typeof functionArn !== 'string' || !('requestPayload' in record)) {
        left.push(`${message.MessageId}: not a record of a failed invocation`);
        continue;
      }
      try {
        await reinvoke(functionArn, record.requestPayload);
        done.push(message);
      } catch (error) {
        left.push(`${message.MessageId}: ${(error as Error).name}: ${(error as Error).message}`);
      }
    }
    if (done.length)
      await client.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
        }),
      );
    invoked += done.length;
  }
  return [`invoked ${invoked} failed invocations again`, ...(left.length ? [`left on the queue: ${left.length}`, ...left] : [])].join('\n');
}
