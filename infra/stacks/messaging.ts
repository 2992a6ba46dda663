import { Duration, NestedStack } from 'aws-cdk-lib';
import { type ITable, Operation } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { Alarms } from '../constructs/alarms.js';
import { EmailEvents } from '../constructs/email-events.js';
import { ServiceQueues } from '../constructs/queues.js';
import type { SurveyDataStack } from './data.js';
import type { SurveyServiceProps } from './props.js';

/** The queues and their dead-letter queues, the SES configuration set and its topic, the async-failure queue, the alarm topic. */
export class MessagingStack extends NestedStack {
  readonly alarms: Alarms;
  readonly queues: ServiceQueues;
  readonly emailEvents: EmailEvents;

  constructor(scope: Construct, id: string, props: SurveyServiceProps & { data: SurveyDataStack }, table: ITable) {
    super(scope, id, { description: 'Satisfaction survey service: queues, SES events topic, alarm topic' });
    this.queues = new ServiceQueues(this);
    this.alarms = new Alarms(this, 'Alarms', { email: props.alarmEmail });
    this.queues.alarmOnFailures(this.alarms);
    this.alarms.add(
      'TableThrottles',
      'DynamoDB throttled requests',
      table.metricThrottledRequestsForOperations({
        operations: [
          Operation.GET_ITEM,
          Operation.PUT_ITEM,
          Operation.UPDATE_ITEM,
          Operation.QUERY,
          Operation.BATCH_GET_ITEM,
          Operation.TRANSACT_WRITE_ITEMS,
        ],
        period: Duration.minutes(5),
      }),
      10,
    );
    // Bounces and complaints of survey e-mails come back through this configuration set, to the SES events function.
    this.emailEvents = new EmailEvents(this);
  }
}
