import { randomUUID } from 'node:crypto';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { ASYNC_RETRY_ATTEMPTS } from '../../shared/queues.js';
import { runAs } from './iam.js';
import { invoke } from './invoke.js';

/**
 * What Lambda records on an asynchronous invocation's on-failure destination once its retries are spent (the shape
 * AWS documents for an SQS destination); `npm run admin -- redrive asyncFailures` invokes `requestPayload` again.
 */
export interface AsyncFailureRecord {
  version: '1.0';
  timestamp: string;
  requestContext: { requestId: string; functionArn: string; condition: 'RetriesExhausted'; approximateInvokeCount: number };
  requestPayload: unknown;
  responseContext: { statusCode: number; executedVersion: string; functionError: 'Unhandled' };
  responsePayload: { errorType: string; errorMessage: string };
}

/** The function an async-failure record names: the function's name in its ARN (`...:function:<name>[:qualifier]`). */
export const functionNameOf = (functionArn: string): string => /:function:([^:]+)/.exec(functionArn)?.[1] ?? functionArn;

/**
 * Invokes a function as Lambda invokes it asynchronously (an EventBridge schedule, an SNS notification): a failed
 * invocation is retried twice, and when the third fails too, a record of it goes to the async-failure queue, sent
 * with the function's own role (its grant in infra/grants.ts), as Lambda sends it. Lambda waits a minute, then two,
 * between the tries; here `retryDelayMs` (0 by default: a local run need not wait).
 */
export async function invokeAsync<E>(
  functionId: string,
  handler: Parameters<typeof invoke<E, unknown>>[1],
  event: E,
  failures: { client: SQSClient; queueUrl: string; retryDelayMs?: number },
): Promise<'succeeded' | 'failed'> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= 1 + ASYNC_RETRY_ATTEMPTS; attempt++) {
    if (attempt > 1 && failures.retryDelayMs) await new Promise((resolve) => setTimeout(resolve, failures.retryDelayMs));
    try {
      // Each try gets a copy: a handler that changed its event must not change the next try's, nor the record's.
      await invoke(functionId, handler, structuredClone(event));
      return 'succeeded';
    } catch (error) {
      lastError = error;
    }
  }
  const record: AsyncFailureRecord = {
    version: '1.0',
    timestamp: new Date().toISOString(),
    requestContext: {
      requestId: randomUUID(),
      functionArn: `arn:aws:lambda:local:000000000000:function:${functionId}:$LATEST`,
      condition: 'RetriesExhausted',
      approximateInvokeCount: 1 + ASYNC_RETRY_ATTEMPTS,
    },
    requestPayload: event,
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    responsePayload: { errorType: (lastError as Error)?.name ?? 'Error', errorMessage: (lastError as Error)?.message ?? String(lastError) },
  };
  await runAs(functionId, () =>
    failures.client.send(new SendMessageCommand({ QueueUrl: failures.queueUrl, MessageBody: JSON.stringify(record) })),
  );
  return 'failed';
}
