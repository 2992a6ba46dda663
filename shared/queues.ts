import { ENV } from './config.js';

/** The queues, declared once: the CDK stack and the local stack both create them from this. */
export const QUEUES = {
  transactions: { name: 'TransactionQueue', urlEnv: ENV.transactionQueueUrl },
  surveyDispatch: { name: 'SurveyDispatchQueue', urlEnv: ENV.surveyDispatchQueueUrl },
  /** One message per event and endpoint: its delivery, and its retries. */
  events: { name: 'EventQueue', urlEnv: ENV.eventQueueUrl },
  /** One message per privacy request (export or erasure) of a data subject. */
  privacy: { name: 'PrivacyQueue', urlEnv: ENV.privacyQueueUrl },
  /** One message per recorded answer or correction: whether it opens (or updates) a case, and its alert. */
  cases: { name: 'CaseQueue', urlEnv: ENV.caseQueueUrl },
  /** One message per case deadline that fired (its timer): the case becomes overdue and escalates, once. */
  caseDeadlines: { name: 'CaseDeadlineQueue', urlEnv: ENV.caseDeadlineQueueUrl },
  /**
   * One message per run of a workspace answer export: a file of any size, written in one invocation (100,000 answers
   * took the time in docs/performance.md locally), so its consumer may run for five minutes.
   */
  exports: { name: 'ExportQueue', urlEnv: ENV.exportQueueUrl, timeoutSeconds: 300 },
  /** One message per written answer with a comment: its themes and sentiment (shared/themes/), never holding the answer back. */
  analysis: { name: 'AnalysisQueue', urlEnv: ENV.analysisQueueUrl },
  /** One message per tenant's scheduled digest run (its fan-out), and one per user's digest of a period (shared/digest/). */
  digests: { name: 'DigestQueue', urlEnv: ENV.digestQueueUrl },
  /** One message per case event (or digest) and chat endpoint (Slack, Teams): its delivery, and its retries. */
  chat: { name: 'ChatQueue', urlEnv: ENV.chatQueueUrl },
  /** One message per tenant's daily score-drop check (shared/results/score-drop-schedule.ts): one tenant a message. */
  scoreDrops: { name: 'ScoreDropQueue', urlEnv: ENV.scoreDropQueueUrl },
  /** One message per tenant's scheduled analytics run: the day before written as Parquet (shared/analytics/schedule.ts). */
  analytics: { name: 'AnalyticsQueue', urlEnv: ENV.analyticsQueueUrl, timeoutSeconds: 300 },
} as const;
export type QueueId = keyof typeof QUEUES;

/**
 * Where Lambda records an asynchronous invocation (a scheduled run, an SNS notification) that failed its two retries:
 * the on-failure destination of every asynchronously invoked function. Each record holds the function's ARN and the
 * event (`requestContext.functionArn`, `requestPayload`); `npm run admin -- redrive asyncFailures` invokes each again.
 */
export const ASYNC_FAILURES = { name: 'AsyncFailureQueue' } as const;

/** Lambda's retries of a failed asynchronous invocation (its default, said out loud), before the failure is recorded. */
export const ASYNC_RETRY_ATTEMPTS = 2;

/** Records per consumer invocation: SQS's largest receive, and the event source's batch size. */
export const QUEUE_BATCH_SIZE = 10;

/** Receives before a message moves to its dead-letter queue. */
export const MAX_RECEIVE_COUNT = 5;

/** A consumer's timeout, unless its queue names its own. */
export const CONSUMER_TIMEOUT_SECONDS = 30;

/** A queue's consumer's timeout: its own where the queue names one. */
export const consumerTimeoutOf = (queue: QueueId): number => {
  const declared = QUEUES[queue];
  return 'timeoutSeconds' in declared ? declared.timeoutSeconds : CONSUMER_TIMEOUT_SECONDS;
};
/** A queue's visibility timeout: six times its consumer's timeout (AWS guidance). */
export const visibilityTimeoutOf = (queue: QueueId): number => 6 * consumerTimeoutOf(queue);

/** What consumers read of a queue record (an SQS record has these and more). */
export interface QueueRecord {
  messageId: string;
  body: string;
  attributes?: { ApproximateReceiveCount?: string };
}

/**
 * Runs `processRecord` on each record of a batch, concurrently, and answers the message ids of the records it threw
 * for: those go back to the queue. The queue wrapper (shared/queue/handler.ts) gives it to a consumer of whole batches.
 */
export type EachRecord<O> = (processRecord: (record: QueueRecord) => Promise<O>) => Promise<string[]>;

/** How many times the queue has handed this record out, this time included. */
export const receiveCount = (record: QueueRecord): number => Number(record.attributes?.ApproximateReceiveCount ?? 1);

/** The longest an SQS message can be delayed: waits up to this go on the queue itself, longer ones to the scheduler's table. */
export const MAX_DELAY_SECONDS = 900;

/** The DelaySeconds that makes a message arrive at `dueAt` (0 when due, at most MAX_DELAY_SECONDS). */
export const delayUntil = (dueAt: Date | string | undefined, now: Date): number =>
  dueAt === undefined ? 0 : Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil((new Date(dueAt).getTime() - now.getTime()) / 1000)));
