import { randomUUID } from 'node:crypto';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  DeleteQueueCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionNameOf, invokeAsync, type AsyncFailureRecord } from '../../infra/local/async.js';
import { startPoller } from '../../infra/local/poller.js';
import { createQueues } from '../../infra/local/setup.js';
import { redriveAsyncFailures } from '../../infra/redrive.js';
import { scheduled } from '../../infra/routes.js';
import { ENV } from '../../shared/config.js';
import { ASYNC_FAILURES, QUEUES } from '../../shared/queues.js';

/**
 * Lambda's asynchronous invocation, as the local timer of the scheduled functions performs it: a run that throws is
 * retried twice, then recorded on the async-failure queue with the function's own grant; the redrive invokes the
 * recorded event again.
 */
const sqs = new SQSClient({});
let queueUrl: string;
beforeAll(async () => {
  // A queue of this file's own, named as the async-failure queue is (the local IAM knows it by that name).
  queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: `${ASYNC_FAILURES.name}-${randomUUID()}` }))).QueueUrl!;
});
afterAll(async () => {
  await sqs.send(new DeleteQueueCommand({ QueueUrl: queueUrl }));
});

/** Takes every message off the queue. */
async function drain(): Promise<string[]> {
  const bodies: string[] = [];
  for (;;) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 300 }),
    );
    if (!Messages.length) return bodies;
    bodies.push(...Messages.map((m) => m.Body!));
    for (const m of Messages) await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle! }));
  }
}

/** A handler that throws its first `failures` calls, and records every event it was given. */
function flaky(failures: number) {
  const calls: unknown[] = [];
  const handler = async (event: unknown) => {
    calls.push(event);
    if (calls.length <= failures) throw new Error(`run ${calls.length} failed`);
    return null;
  };
  return { calls, handler };
}

describe('asynchronous invocations (scheduled runs, SES events)', () => {
  it('retries a failing run twice, then records it, event and error, on the async-failure queue', async () => {
    const event = { source: 'local.timer', time: new Date().toISOString() };
    const { calls, handler } = flaky(Infinity);

    expect(await invokeAsync('attemptScheduler', handler, event, { client: sqs, queueUrl })).toBe('failed');

    expect(calls).toEqual([event, event, event]);
    const records = (await drain()).map((body) => JSON.parse(body) as AsyncFailureRecord);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      requestContext: { condition: 'RetriesExhausted', approximateInvokeCount: 3 },
      requestPayload: event,
      responsePayload: { errorType: 'Error', errorMessage: 'run 3 failed' },
    });
    expect(functionNameOf(records[0]!.requestContext.functionArn)).toBe('attemptScheduler');
  });

  it('records nothing when a retry succeeds', async () => {
    const { calls, handler } = flaky(2);
    expect(await invokeAsync('personalCopiesExpiry', handler, { n: 1 }, { client: sqs, queueUrl })).toBe('succeeded');
    expect(calls).toHaveLength(3);
    expect(await drain()).toEqual([]);
  });

  it("records with the function's own grant: a function that is not invoked asynchronously may not send there", async () => {
    const { handler } = flaky(Infinity);
    await expect(invokeAsync('getStore', handler, {}, { client: sqs, queueUrl })).rejects.toMatchObject({
      message: expect.stringContaining('is not authorized to perform: sqs:SendMessage'),
    });
    expect(await drain()).toEqual([]);
  });

  it('redrive invokes each recorded event again and removes it; a record it cannot read stays, counted', async () => {
    const event = { Records: [{ Sns: { MessageId: randomUUID(), Message: '{}' } }] };
    const failing = flaky(Infinity);
    await invokeAsync('sesEvents', failing.handler, event, { client: sqs, queueUrl });
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: 'not json' }));

    const fixed = flaky(0);
    const invoked: string[] = [];
    const report = await redriveAsyncFailures(
      sqs,
      queueUrl,
      async (functionArn, payload) => {
        invoked.push(functionNameOf(functionArn));
        await invokeAsync(functionNameOf(functionArn), fixed.handler, payload, { client: sqs, queueUrl });
      },
      1,
    );

    expect(invoked).toEqual(['sesEvents']);
    expect(fixed.calls).toEqual([event]);
    expect(report).toMatch(/invoked 1 failed invocations again\nleft on the queue: 1\n.*not a record of a failed invocation/);
    // Only the unreadable record is left, back in sight once this run's receive stops hiding it.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await drain()).toEqual(['not json']);
  });
});

describe('the local timer of the scheduled functions', () => {
  it('invokes each as Lambda invokes it asynchronously: a run that fails three times is recorded on the async-failure queue', async () => {
    const saved = { ...process.env };
    // Every run fails (the table does not exist); the consumers poll queues of this test's own, which stay empty.
    process.env[ENV.tableName] = `missing-${randomUUID()}`;
    const queueUrls = await createQueues(sqs, `timer-${randomUUID().slice(0, 8)}-`);
    for (const [id, queue] of Object.entries(QUEUES)) process.env[queue.urlEnv] = queueUrls[id as keyof typeof queueUrls];
    const poller = startPoller(sqs, queueUrls, { visibilityTimeoutSeconds: 1, scheduledEverySeconds: 600, asyncFailureQueueUrl: queueUrl });
    const records: AsyncFailureRecord[] = [];
    try {
      for (let waited = 0; records.length < scheduled.length && waited < 20_000; waited += 250) {
        records.push(...(await drain()).map((body) => JSON.parse(body) as AsyncFailureRecord));
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    } finally {
      await poller.stop();
      process.env = saved;
      for (const url of Object.values(queueUrls)) await sqs.send(new DeleteQueueCommand({ QueueUrl: url }));
    }

    expect(records.map((r) => functionNameOf(r.requestContext.functionArn)).sort()).toEqual(scheduled.map((job) => job.id).sort());
    for (const record of records) {
      expect(record.requestContext).toMatchObject({ condition: 'RetriesExhausted', approximateInvokeCount: 3 });
      expect(record.requestPayload).toMatchObject({ source: 'local.timer' });
      expect(record.responsePayload.errorType).toBe('ResourceNotFoundException');
    }
  });
});
