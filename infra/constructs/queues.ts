import { Duration } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { ASYNC_FAILURES, MAX_RECEIVE_COUNT, QUEUES, visibilityTimeoutOf, type QueueId } from '../../shared/queues.js';
import { acknowledgeDeadLetterQueue } from './acknowledgments.js';
import type { Alarms } from './alarms.js';

/**
 * The queues of shared/queues.ts, each with its dead-letter queue, and the async-failure queue, where Lambda records
 * an asynchronous invocation that failed its retries; built into `scope` (see infra/stack.ts on why a part keeps its
 * stack's scope).
 */
export class ServiceQueues {
  readonly queues = {} as Record<QueueId, Queue>;
  readonly deadLetterQueues = {} as Record<QueueId, Queue>;
  readonly asyncFailures: Queue;

  constructor(scope: Construct) {
    for (const [queueId, declared] of Object.entries(QUEUES) as [QueueId, (typeof QUEUES)[QueueId]][]) {
      const deadLetterQueue = new Queue(scope, `${declared.name}Dlq`, { retentionPeriod: Duration.days(14), enforceSSL: true });
      acknowledgeDeadLetterQueue(deadLetterQueue);
      this.deadLetterQueues[queueId] = deadLetterQueue;
      this.queues[queueId] = new Queue(scope, declared.name, {
        visibilityTimeout: Duration.seconds(visibilityTimeoutOf(queueId)),
        // Four days, SQS's default, said out loud: a message must outlive its five receives (15 minutes) and a
        // delayed survey attempt (15 minutes) many times over; the dead-letter queue keeps failures for 14 days.
        retentionPeriod: Duration.days(4),
        enforceSSL: true,
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
      });
    }
    // Lambda's on-failure destination of every asynchronously invoked function: an invocation that failed its two
    // retries is recorded here (the event and the error) instead of being dropped.
    this.asyncFailures = new Queue(scope, ASYNC_FAILURES.name, { retentionPeriod: Duration.days(14), enforceSSL: true });
    acknowledgeDeadLetterQueue(this.asyncFailures);
  }

  /** An alarm on the first message of each dead-letter queue and of the async-failure queue. */
  alarmOnFailures(alarms: Alarms): void {
    for (const [queueId, dlq] of Object.entries(this.deadLetterQueues)) {
      alarms.add(
        `${QUEUES[queueId as QueueId].name}DlqNotEmpty`,
        'A message is in a dead-letter queue: inspect and redrive it (docs/operations.md)',
        dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        1,
      );
    }
    alarms.add(
      `${ASYNC_FAILURES.name}NotEmpty`,
      'An asynchronous invocation (a scheduled run, an SES event) failed its retries: inspect and redrive it (docs/operations.md)',
      this.asyncFailures.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      1,
    );
  }
}
