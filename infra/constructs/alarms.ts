import { Alarm, ComparisonOperator, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

/** The service's alarms, all notifying one SNS topic (e-mailed when `email` is given at deploy time). */
export class Alarms extends Construct {
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: { email?: string | undefined }) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', { displayName: 'Satisfaction survey service alarms', enforceSSL: true });
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));
  }

  /**
   * An alarm when `metric` reaches `threshold` in one period; missing data is not a breach. `scope`: where the alarm
   * is declared (the stack of what it watches), this construct by default.
   */
  add(id: string, description: string, metric: IMetric, threshold: number, scope: Construct = this): Alarm {
    const alarm = new Alarm(scope, scope === this ? id : `${id}Alarm`, {
      alarmDescription: description,
      metric,
      threshold,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    return alarm;
  }
}
