import { CfnOutput, Stack } from 'aws-cdk-lib';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { ASYNC_FAILURES, QUEUES, type QueueId } from '../../shared/queues.js';
import { capitalise } from '../../shared/text.js';
import { acknowledgeStackFindings } from '../constructs/acknowledgments.js';
import { FunctionBinding } from '../constructs/function-binding.js';
import type { ServiceHttpApi } from '../constructs/http-api.js';
import type { ServiceQueues } from '../constructs/queues.js';
import type { ApiName } from '../routes.js';
import { ApiStack } from './api.js';
import type { SurveyDataStack } from './data.js';
import { MessagingStack } from './messaging.js';
import type { Shared, SurveyServiceProps } from './props.js';
import { WorkersStack } from './workers.js';

/** The service: its nested stacks, and the outputs an operator reads. */
export class SurveyServiceStack extends Stack {
  readonly messaging: MessagingStack;
  readonly apis: Record<ApiName, ApiStack>;
  readonly workers: WorkersStack;

  constructor(scope: Construct, id: string, props: SurveyServiceProps & { data: SurveyDataStack }) {
    super(scope, id, props);
    for (const name of ['public', 'chatbot'] as const)
      for (const origin of props.corsOrigins?.[name] ?? [])
        if (!/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i.test(origin))
          throw new Error(`${JSON.stringify(origin)} is not a browser origin such as https://app.example.com (no path, no wildcard).`);
    const table = props.data.importTable(this);
    let importedLogos: IBucket | undefined;
    let importedAnalytics: IBucket | undefined;
    let importedExports: IBucket | undefined;
    const messaging = new MessagingStack(this, 'Messaging', props, table);
    const shared: Shared = {
      props,
      alarms: messaging.alarms,
      emailEvents: messaging.emailEvents,
      binding: new FunctionBinding({
        table,
        secrets: props.data.secrets,
        queues: messaging.queues.queues,
        asyncFailures: messaging.queues.asyncFailures,
        configurationSet: messaging.emailEvents.configurationSet,
        logRetention: props.logRetention,
        senders: props.senders,
        logoBucket: () => (importedLogos ??= props.data.importLogoBucket(this)),
        analyticsBucket: () => (importedAnalytics ??= props.data.importAnalyticsBucket(this)),
        exportBucket: () => (importedExports ??= props.data.importExportBucket(this)),
        userPool: {
          issuer: props.data.managers.userPool.userPoolProviderUrl,
          clientId: props.data.managers.workspaceClient.userPoolClientId,
        },
      }),
    };
    const publicApi = new ApiStack(this, 'PublicApi', shared, 'public');
    this.messaging = messaging;
    this.apis = { public: publicApi, chatbot: new ApiStack(this, 'ChatbotApi', shared, 'chatbot') };
    this.workers = new WorkersStack(this, 'Workers', { ...shared, binding: shared.binding.withSurveyBaseUrl(publicApi.http.linkBaseUrl) });
    acknowledgeStackFindings(
      this,
      props.data.tableArnExport,
      props.data.logoBucketNameExport,
      props.data.analyticsBucketNameExport,
      props.data.exportBucketNameExport,
    );
    this.addOutputs(messaging.queues, publicApi.http, props.customDomain?.domainName);
  }

  private addOutputs(queues: ServiceQueues, publicApi: ServiceHttpApi, customDomain: string | undefined): void {
    for (const [queueId, queue] of Object.entries(queues.queues)) {
      new CfnOutput(this, `${QUEUES[queueId as QueueId].name}Url`, { value: queue.queueUrl });
      new CfnOutput(this, `${QUEUES[queueId as QueueId].name}DlqUrl`, { value: queues.deadLetterQueues[queueId as QueueId].queueUrl });
    }
    new CfnOutput(this, `${ASYNC_FAILURES.name}Url`, {
      value: queues.asyncFailures.queueUrl,
      description: 'Failed asynchronous invocations (scheduled runs, SES events): npm run admin -- redrive asyncFailures --dlq-url <this>',
    });
    for (const name of ['public', 'chatbot'] as const) new CfnOutput(this, `${capitalise(name)}ApiUrl`, { value: this.apis[name].url });
    new CfnOutput(this, 'SurveyBaseUrl', { value: publicApi.linkBaseUrl, description: 'Survey links open <this>/s/<token>' });
    if (publicApi.domainName)
      new CfnOutput(this, 'CustomDomainTarget', {
        value: publicApi.domainName.regionalDomainName,
        description: `Create the DNS record: ${customDomain} CNAME <this>`,
      });
    new CfnOutput(this, 'SesConfigurationSet', { value: this.messaging.emailEvents.configurationSet.ref });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.messaging.alarms.topic.topicArn });
  }
}
