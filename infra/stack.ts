import { CfnOutput, Duration, Fn, NestedStack, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { type ITable, Operation, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { ENV } from '../shared/config.js';
import { ASYNC_FAILURES, CONSUMER_TIMEOUT_SECONDS, QUEUE_BATCH_SIZE, QUEUES, type QueueId } from '../shared/queues.js';
import { capitalise } from '../shared/text.js';
import { APP_ADMIN_PATH } from '../shared/session/paths.js';
import { acknowledgeDeadLetterQueue, acknowledgeQueueEventSource, acknowledgeStackFindings } from './constructs/acknowledgments.js';
import { Alarms } from './constructs/alarms.js';
import { EmailEvents } from './constructs/email-events.js';
import { FunctionBinding } from './constructs/function-binding.js';
import { ServiceHttpApi, type CustomDomain, type Throttle } from './constructs/http-api.js';
import { ServiceQueues } from './constructs/queues.js';
import { logoBucket } from './constructs/logos.js';
import { Managers } from './constructs/managers.js';
import { Storage } from './constructs/storage.js';
import { consumers, notified, reference, referencePaths, routes, scheduled, workspaceRoutes, type ApiName, type Route } from './routes.js';
import { referenceId, type SecretId } from './grants.js';

export { customDomainFromContext, DEFAULT_THROTTLE, type CustomDomain, type Throttle } from './constructs/http-api.js';

export interface SurveyServiceProps extends StackProps {
  stage: string;
  logRetention: RetentionDays;
  authorizerCacheTtlSeconds: number;
  /** Where alarms are e-mailed (optional: the SNS topic exists either way). */
  alarmEmail?: string | undefined;
  /**
   * Caps how many invocations each queue consumer's event source runs at once (2 to 1000), and so the write
   * pressure on the table; unset: no cap. The event source's own limit: messages wait in the queue, never throttled
   * into the dead-letter queue as reserved concurrency would.
   */
  consumerMaxConcurrency?: number | undefined;
  /**
   * The identities the survey dispatcher may send from: SES identity ARNs (verified domains or addresses), SMS
   * origination identities (phone number or sender id ARNs) and WhatsApp phone number ids' ARNs. Unset: any of this
   * account's in the region (narrow it in production with the context settings of the README).
   */
  senders?: { ses?: string[]; sms?: string[]; whatsapp?: string[] } | undefined;
  /**
   * Requests per second (steady, burst) each API's stage admits on every route, and on the routes that need no key
   * (health and the survey pages), which get less. Over it, API Gateway answers 429 before any function runs.
   */
  throttle?: Partial<Throttle> | undefined;
  /**
   * The browser origins (`https://app.example.com`) each API admits across origins (CORS, answered by API Gateway
   * itself); unset or empty: none, so that no web page elsewhere can call the API from a visitor's browser.
   */
  corsOrigins?: Partial<Record<ApiName, readonly string[]>> | undefined;
  /** Each API's reference directory (writeReference), bundled with the function that serves /docs and /openapi.json. */
  references: Record<ApiName, string>;
  /**
   * The tenant-facing domain of the public API (`pesquisa.example.com`) and the ARN of the deployer's ACM certificate
   * for it, in the stack's region: the API gets an API Gateway domain name mapped to its stage, and survey links use
   * `https://<domainName>`. Unset: links use the API's execute-api URL.
   */
  customDomain?: CustomDomain | undefined;
}

/**
 * The deployment, split by lifetime and concern so that each stack stays far under CloudFormation's 500 resources
 * (test/infra/stack.test.ts pins each below 200):
 *
 * - `<name>-Data`: the table and the three secrets, retained: what outlives every deployment. Its exports (the
 *   table's name and ARN, the secrets' ARNs) are the only cross-stack exports: nothing replaces this stack.
 * - `<name>`: the service, whose nested stacks receive what they share as nested-stack parameters (never exports,
 *   which would block replacing the stack that exports them): `Messaging` (queues, the SES configuration set and its
 *   topic, the async-failure queue, the alarm topic), `PublicApi` and `ChatbotApi` (each its HttpApi, stage,
 *   authorizer and reference, and one nested stack per route group adding its operations' functions and routes to
 *   that one HttpApi), and `Workers` (queue consumers, scheduled functions, the SES events function).
 *
 * Each stack is assembled from the parts of infra/constructs/: `Storage`, `ServiceQueues`, `EmailEvents`,
 * `ServiceHttpApi`, and the `FunctionBinding` every function is made through. A part builds its resources into the
 * scope it is given (its stack), not under a construct of its own: a resource's construct path makes its logical ID,
 * and a new logical ID is a new resource to CloudFormation (a replaced table loses its data). The path also names
 * what CDK derives from it (`Names.nodeUniqueId`: the SQS event source mappings, the SNS subscription's and the HTTP
 * integrations' and authorizers' invoke permissions), which a logical-ID override would not cover. So the templates
 * are those of the stack before it was split into parts (test/infra/stack.test.ts pins the ids that hold data).
 *
 * `npx cdk deploy --all` deploys both, the data stack first.
 */
export function surveyService(scope: Construct, name: string, props: SurveyServiceProps): SurveyService {
  const { env } = props;
  const data = new SurveyDataStack(scope, `${name}-Data`, {
    ...(env ? { env } : {}),
    description: 'Satisfaction survey service: the table and the secrets (retained)',
  });
  const service = new SurveyServiceStack(scope, name, { ...props, data });
  service.addStackDependency(data);
  return { data, service, stacks: [data, service, ...service.node.findAll().filter((c): c is Stack => c !== service && Stack.isStack(c))] };
}

export interface SurveyService {
  data: SurveyDataStack;
  service: SurveyServiceStack;
  /** Every stack of the deployment: the two top-level ones, then the service's nested stacks. */
  stacks: Stack[];
}

/** The table and the secrets: retained on deletion, deployed once and rarely changed. */
export class SurveyDataStack extends Stack {
  readonly table: Table;
  readonly secrets: Record<SecretId, Secret>;
  readonly managers: Managers;
  /** The tenants' logos (shared/tenants/logo.ts): private, objects named by their content's hash. */
  readonly logoBucket: Bucket;

  constructor(scope: Construct, id: string, props: StackProps) {
    super(scope, id, props);
    ({ table: this.table, secrets: this.secrets } = new Storage(this));
    this.logoBucket = logoBucket(this);
    new CfnOutput(this, 'LogoBucketName', {
      value: this.logoBucket.bucketName,
      exportName: this.logoBucketNameExport,
      description: `The tenants' logos: the admin command uploads a tenant file's logo here (${ENV.logoBucket}=<this>)`,
    });
    this.managers = new Managers(this);
    new CfnOutput(this, 'UserPoolId', {
      value: this.managers.userPool.userPoolId,
      description: 'npm run admin -- create-user needs it (USER_POOL_ID)',
    });
    acknowledgeStackFindings(this, this.tableArnExport, this.logoBucketNameExport);
    // Exported by name: the service's roles name `<this ARN>/index/*`, whose finding cdk-nag names by this export.
    new CfnOutput(this, 'TableName', { value: this.table.tableName, exportName: this.tableNameExport });
    new CfnOutput(this, 'TableArn', { value: this.table.tableArn, exportName: this.tableArnExport });
  }

  get tableNameExport(): string {
    return `${this.stackName}-TableName`;
  }
  get tableArnExport(): string {
    return `${this.stackName}-TableArn`;
  }
  get logoBucketNameExport(): string {
    return `${this.stackName}-LogoBucketName`;
  }

  /** The logo bucket, as the stack `scope` imports it (from this retained stack's exports). */
  importLogoBucket(scope: Construct): IBucket {
    return Bucket.fromBucketName(scope, 'LogoBucket', Fn.importValue(this.logoBucketNameExport));
  }

  /** The table, as the stack `scope` imports it (from this retained stack's exports). */
  importTable(scope: Construct): ITable {
    // Its name is read from the ARN (CDK takes one or the other).
    return Table.fromTableAttributes(scope, 'Table', { tableArn: Fn.importValue(this.tableArnExport) });
  }
}

/** What the nested stacks share: the settings, the alarms, the SES events topic, and the binding of their functions. */
interface Shared {
  props: SurveyServiceProps;
  alarms: Alarms;
  emailEvents: EmailEvents;
  binding: FunctionBinding;
}

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
    acknowledgeStackFindings(this, props.data.tableArnExport, props.data.logoBucketNameExport);
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

/** The route groups of an API: one nested stack each, sized to stay far from a stack's limits as operations are added. */
const ROUTE_GROUPS: Record<string, string> = {
  store: 'Directory',
  employee: 'Directory',
  customer: 'Transactions',
  transaction: 'Transactions',
  transactions: 'Transactions',
  rating: 'Insights',
  answers: 'Insights',
  results: 'Insights',
  webhooks: 'Insights',
  privacy: 'Privacy',
  cases: 'Cases',
  admin: 'Admin',
  s: 'Pages',
  health: 'Pages',
  brand: 'Pages',
  survey: 'Survey',
};

/**
 * The workspace's pages in two nested stacks: the tenant admins' pages (under /app/admin) apart from the others, so that
 * each keeps room for new pages (the workspace's one stack had reached 154 of its 200 resources).
 */
export const workspaceGroupOf = (route: Route): 'Workspace' | 'WorkspaceAdmin' =>
  route.paths[0]!.startsWith(`${APP_ADMIN_PATH}/`) ? 'WorkspaceAdmin' : 'Workspace';

/** The route group of a route, by the first segment of its canonical path after its prefix (`/public`, `/v2`). */
export function routeGroupOf(route: Route): string {
  const segment = route.paths[0]!.replace(/^\/(public|v2|api\/v1)(?=\/)/, '').split('/')[1] ?? '';
  return ROUTE_GROUPS[segment] ?? 'Other';
}

/** One HTTP API: the HttpApi, its stage, access logs, authorizer and reference; its operations in route-group nested stacks. */
export class ApiStack extends NestedStack {
  readonly http: ServiceHttpApi;
  readonly url: string;

  constructor(scope: Construct, id: string, shared: Shared, name: ApiName) {
    super(scope, id, { description: `Satisfaction survey service: the ${name} API` });
    const { props, binding } = shared;
    this.http = new ServiceHttpApi(
      this,
      name,
      { ...props, corsOrigins: props.corsOrigins?.[name], logRetention: props.logRetention },
      binding,
      shared.alarms,
    );
    this.url = this.http.url;

    // The API's reference: its document and /docs, written at build time and served by a function of its own.
    const referenceFunction = binding.function(this, referenceId(name), {
      handler: reference.handler,
      description: `GET /openapi.json and /docs: the ${name} API's reference`,
      memorySize: 256,
      files: [props.references[name], 'reference'],
    });
    const integration = new HttpLambdaIntegration(`${capitalise(name)}ReferenceIntegration`, referenceFunction, {
      scopePermissionToRoute: false,
    });
    for (const path of referencePaths(name)) this.http.addRoute(this, { path, method: 'GET', integration, anonymous: true });

    const groups = new Map<string, Route[]>();
    for (const route of routes.filter((r) => r.api === name))
      groups.set(routeGroupOf(route), [...(groups.get(routeGroupOf(route)) ?? []), route]);
    // The survey pages show the tenant's logo under the address survey links use.
    const pages = name === 'public' ? binding.withSurveyBaseUrl(this.http.linkBaseUrl) : binding;
    for (const [group, grouped] of groups) new RouteGroupStack(this, `${group}Routes`, pages, grouped);
    if (name === 'public')
      for (const group of ['Workspace', 'WorkspaceAdmin'])
        new RouteGroupStack(
          this,
          `${group}Routes`,
          binding,
          workspaceRoutes.filter((route) => workspaceGroupOf(route) === group),
        );
  }
}

/** A group of an API's operations: one function per operation, and its routes on the parent's HttpApi. */
export class RouteGroupStack extends NestedStack {
  constructor(scope: ApiStack, id: string, binding: FunctionBinding, grouped: readonly Route[]) {
    super(scope, id, { description: `Satisfaction survey service: ${grouped.map((r) => r.operationId).join(', ')}` });
    for (const route of grouped) {
      const fn = binding.function(this, route.operationId, {
        handler: route.handler,
        description: `${route.method} ${route.paths[0]}: ${route.summary}`,
      });
      // One invoke permission per function, for its API, instead of one per route and path: the routes of an API
      // invoke only the functions they integrate anyway.
      const integration = new HttpLambdaIntegration(`${capitalise(route.operationId)}Integration`, fn, { scopePermissionToRoute: false });
      for (const path of route.paths)
        scope.http.addRoute(this, { path, method: route.method, integration, anonymous: route.anonymous, session: route.session });
    }
  }
}

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
      timeout: Duration.seconds(CONSUMER_TIMEOUT_SECONDS),
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
