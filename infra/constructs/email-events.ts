import { Stack } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnConfigurationSet, CfnConfigurationSetEventDestination } from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';

/**
 * The SES configuration set survey e-mails are sent through, and the topic its bounces and complaints are published
 * to (the SES events function subscribes to it); built into `scope` (see infra/stack.ts on why a part keeps its
 * stack's scope).
 */
export class EmailEvents {
  readonly configurationSet: CfnConfigurationSet;
  readonly topic: Topic;

  constructor(scope: Construct) {
    this.configurationSet = new CfnConfigurationSet(scope, 'SurveyEmails', {
      reputationOptions: { reputationMetricsEnabled: true },
      sendingOptions: { sendingEnabled: true },
    });
    this.topic = new Topic(scope, 'SurveyEmailEvents', { enforceSSL: true });
    new CfnConfigurationSetEventDestination(scope, 'SurveyEmailEventDestination', {
      configurationSetName: this.configurationSet.ref,
      eventDestination: {
        enabled: true,
        matchingEventTypes: ['BOUNCE', 'COMPLAINT'],
        snsDestination: { topicArn: this.topic.topicArn },
      },
    });
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('ses.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: { StringEquals: { 'AWS:SourceAccount': Stack.of(scope).account } },
      }),
    );
  }
}
