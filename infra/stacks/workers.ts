import { Duration, NestedStack } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { CONSUMER_TIMEOUT_SECONDS, consumerTimeoutOf, QUEUE_BATCH_SIZE, QUEUES } from '../../shared/queues.js';
import { capitalise } from '../../shared/text.js';
import { acknowledgeDeadLetterQueue, acknowledgeQueueEventSource } from '../constructs/acknowledgments.js';
import type { Alarms } from '../constructs/alarms.js';
import { consumers, notified, scheduled } from '../routes.js';
import type { Shared } from './props.js';

/** The functions no API invokes: queue consumers, scheduled functions, the SES events function. */
export class WorkersStack extends NestedStack {
  constructor(scope: Construct, id: string, shared: Shared) {
    super(scope, id, { description: 'Satisfaction survey service: queue consumers, scheduled functions, SES events' });
    for (const consumer of consumers) this.addConsumer(shared, consumer);
    for (const job of scheduled) this.addScheduled(shared, job);
    // SES bounce and complaint notifications: mark the address undeliverable, opt a complainer out.
    for (const spec of notified) {
      const fn = shared.binding.function(this, spec.id, { handler: spec.handler, description: spec.summary });
      // SNS retries only the delivery to Lambda; a notification it cannot deliver waits in this dead-letter queue.
      // Once delivered, the invocation is asynchronous: Lambda retries a failed one twice, then records it on the
      // async-failure queue.
      shared.emailEvents.topic.addSubscription(
        new LambdaSubscription(fn, { deadLetterQueue: this.deadLetterQueueOf(shared.alarms, `${capitalise(spec.id)}Dlq`) }),
      );
    }
  }

  /** A queue consumer, fed in batches by its queue's event source, with alarms on its errors, throttles and oldest message. */
  private addConsumer({ props, alarms, binding }: Shared, consumer: (typeof consumers)[number]): void {
    const queue = binding.resources.queues[consumer.queue];
    const fn = binding.function(this, consumer.id, {
      ...consumer,
      description: `${QUEUES[consumer.queue].name}: ${consumer.summary}`,
      timeout: Duration.seconds(consumerTimeoutOf(consumer.queue)),
    });
    // Up to a second's wait fills batches at moderate traffic: a tenth of the invocations, receives and deletes.
    acknowledgeQueueEventSource(fn);
    fn.addEventSource(
      new SqsEventSource(queue, {
        batchSize: QUEUE_BATCH_SIZE,
        maxBatchingWindow: Duration.seconds(1),
        reportBatchItemFailures: true,
        ...(props.consumerMaxConcurrency ? { maxConcurrency: props.consumerMaxConcurrency } : {}),
      }),
    );
    const period = Duration.minutes(5);
    alarms.add(`${capitalise(consumer.id)}Errors`, `${consumer.id} failed invocations`, fn.metricErrors({ period }), 1, this);
    alarms.add(`${capitalise(consumer.id)}Throttles`, `${consumer.id} throttled invocations`, fn.metricThrottles({ period }), 1, this);
    alarms.add(
      `${QUEUES[consumer.queue].name}OldestMessage`,
      `A message waited more than 15 minutes in ${QUEUES[consumer.queue].name}: its consumer is failing or falling behind`,
      queue.metricApproximateAgeOfOldestMessage({ period, statistic: 'Maximum' }),
      900,
      this,
    );
  }

  /**
   * A scheduled function: the survey attempts due later than the queue can delay, released every minute; the
   * personal copies past their tenant's retention, removed every quarter hour. EventBridge invokes them
   * asynchronously: a run that throws is retried twice by Lambda, then recorded on the async-failure queue.
   */
  private addScheduled({ alarms, binding }: Shared, job: (typeof scheduled)[number]): void {
    const fn = binding.function(this, job.id, {
      ...job,
      description: job.summary,
      timeout: Duration.seconds(job.timeoutSeconds ?? CONSUMER_TIMEOUT_SECONDS),
      reservedConcurrency: 1,
    });
    new Rule(this, `${capitalise(job.id)}Schedule`, {
      schedule: Schedule.rate(Duration.minutes(job.everyMinutes)),
      // EventBridge's own retries cover only handing the event to Lambda (throttled, or Lambda unavailable); an
      // event it cannot hand over lands in this dead-letter queue. The run's own failure is Lambda's to retry.
      targets: [new LambdaFunction(fn, { retryAttempts: 2, deadLetterQueue: this.deadLetterQueueOf(alarms, `${capitalise(job.id)}Dlq`) })],
    });
    alarms.add(`${capitalise(job.id)}Errors`, `${job.id} failed runs`, fn.metricErrors({ period: Duration.minutes(5) }), 3, this);
  }

  /** A dead-letter queue of an EventBridge target or an SNS subscription, with an alarm on its first message. */
  private deadLetterQueueOf(alarms: Alarms, queueId: string): Queue {
    const queue = new Queue(this, queueId, { retentionPeriod: Duration.days(14), enforceSSL: true });
    acknowledgeDeadLetterQueue(queue);
    alarms.add(
      `${queueId}Messages`,
      `${queueId} holds a message that could not be delivered`,
      queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      1,
      this,
    );
    return queue;
  }
}
