import { CfnOutput, Duration, Fn, NestedStack, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import {
  type CfnStage,
  CorsHttpMethod,
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
  type IHttpRouteAuthorizer,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { AccessLogField, AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, BillingMode, type ITable, Operation, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IDestination } from 'aws-cdk-lib/aws-lambda';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { MathExpression } from 'aws-cdk-lib/aws-cloudwatch';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnConfigurationSet, CfnConfigurationSetEventDestination } from 'aws-cdk-lib/aws-ses';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Alarms } from './constructs/alarms.js';
import type { Construct } from 'constructs';
import {
  ASYNC_FAILURES,
  ASYNC_RETRY_ATTEMPTS,
  CONSUMER_TIMEOUT_SECONDS,
  MAX_RECEIVE_COUNT,
  QUEUE_BATCH_SIZE,
  QUEUES,
  QUEUE_VISIBILITY_TIMEOUT_SECONDS,
  type QueueId,
} from '../shared/queues.js';
import { TABLE } from '../shared/table.js';
import { capitalise } from '../shared/text.js';
import { API_KEY_HEADER, USER_TOKEN_HEADER } from '../shared/headers.js';
import {
  acknowledgeAnonymousRoute,
  acknowledgeDeadLetterQueue,
  acknowledgeQueueEventSource,
  acknowledgeStackFindings,
} from './constructs/acknowledgments.js';
import { ServiceFunction } from './constructs/service-function.js';
import {
  authorizers,
  consumers,
  notified,
  reference,
  referencePaths,
  routes,
  scheduled,
  type ApiName,
  type Provider,
  type Route,
} from './routes.js';
import { authorizerId, environmentOf, grantsOf, referenceId, type SecretId, type Statement } from './grants.js';

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
}

export interface Throttle {
  rate: number;
  burst: number;
  anonymousRate: number;
  anonymousBurst: number;
}

/** Default stage throttling: the account's concurrency is shared by every tenant, and the anonymous routes read the table. */
export const DEFAULT_THROTTLE: Throttle = { rate: 500, burst: 1000, anonymousRate: 20, anonymousBurst: 40 };

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

  constructor(scope: Construct, id: string, props: StackProps) {
    super(scope, id, props);
    const table = new Table(this, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE.ttlAttribute,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of TABLE.indexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: 'keysOnly' in index ? ProjectionType.KEYS_ONLY : ProjectionType.ALL,
      });
    }
    const secret = (secretId: string, description: string) =>
      new Secret(this, secretId, {
        description,
        generateSecretString: { passwordLength: 48, excludePunctuation: true },
        // A new secret would invalidate every link, request id and cursor in flight.
        removalPolicy: RemovalPolicy.RETAIN,
      });
    this.secrets = {
      // Signs v2 request ids; resolved into the two functions' environment at deploy time.
      requestIds: secret('RequestIdSecret', 'Signs the request ids of POST /v2/transactions'),
      // Seals list cursors, which carry table keys.
      cursors: secret('CursorSecret', 'Seals the cursors of paged lists'),
      // Signs survey links and derives each tenant's webhook secret.
      surveyLinks: secret('SurveySecret', "Signs survey links and derives each tenant's chatbot webhook secret"),
    };
    this.table = table;
    acknowledgeStackFindings(this, this.tableArnExport);
    // Exported by name: the service's roles name `<this ARN>/index/*`, whose finding cdk-nag names by this export.
    new CfnOutput(this, 'TableName', { value: table.tableName, exportName: this.tableNameExport });
    new CfnOutput(this, 'TableArn', { value: table.tableArn, exportName: this.tableArnExport });
  }

  get tableNameExport(): string {
    return `${this.stackName}-TableName`;
  }
  get tableArnExport(): string {
    return `${this.stackName}-TableArn`;
  }

  /** The table, as the stack `scope` imports it (from this retained stack's exports). */
  importTable(scope: Construct): ITable {
    // Its name is read from the ARN (CDK takes one or the other).
    return Table.fromTableAttributes(scope, 'Table', { tableArn: Fn.importValue(this.tableArnExport) });
  }
}

/** What the nested stacks share: the data stack's resources, the messaging stack's, the settings. */
interface Shared {
  props: SurveyServiceProps;
  table: ITable;
  secrets: Record<SecretId, Secret>;
  queues: Record<QueueId, Queue>;
  asyncFailures: Queue;
  configurationSet: CfnConfigurationSet;
  emailEvents: Topic;
  alarms: Alarms;
  /** The public API's URL, once that stack exists (survey links open under it). */
  surveyBaseUrl?: string;
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
    this.messaging = new MessagingStack(this, 'Messaging', props, table);
    const shared: Shared = {
      props,
      table,
      secrets: props.data.secrets,
      queues: this.messaging.queues,
      asyncFailures: this.messaging.asyncFailures,
      configurationSet: this.messaging.configurationSet,
      emailEvents: this.messaging.emailEvents,
      alarms: this.messaging.alarms,
    };
    const publicApi = new ApiStack(this, 'PublicApi', shared, 'public');
    this.apis = { public: publicApi, chatbot: new ApiStack(this, 'ChatbotApi', shared, 'chatbot') };
    this.workers = new WorkersStack(this, 'Workers', { ...shared, surveyBaseUrl: publicApi.url });

    acknowledgeStackFindings(this, props.data.tableArnExport);
    for (const [queueId, queue] of Object.entries(this.messaging.queues)) {
      new CfnOutput(this, `${QUEUES[queueId as QueueId].name}Url`, { value: queue.queueUrl });
      new CfnOutput(this, `${QUEUES[queueId as QueueId].name}DlqUrl`, {
        value: this.messaging.deadLetterQueues[queueId as QueueId].queueUrl,
      });
    }
    new CfnOutput(this, `${ASYNC_FAILURES.name}Url`, {
      value: this.messaging.asyncFailures.queueUrl,
      description: 'Failed asynchronous invocations (scheduled runs, SES events): npm run admin -- redrive asyncFailures --dlq-url <this>',
    });
    for (const name of ['public', 'chatbot'] as const) new CfnOutput(this, `${capitalise(name)}ApiUrl`, { value: this.apis[name].url });
    new CfnOutput(this, 'SurveyBaseUrl', { value: publicApi.url, description: 'Survey links open <this>/s/<token>' });
    new CfnOutput(this, 'SesConfigurationSet', { value: this.messaging.configurationSet.ref });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.messaging.alarms.topic.topicArn });
  }
}

/** The queues and their dead-letter queues, the SES configuration set and its topic, the async-failure queue, the alarm topic. */
export class MessagingStack extends NestedStack {
  readonly queues = {} as Record<QueueId, Queue>;
  readonly deadLetterQueues = {} as Record<QueueId, Queue>;
  readonly asyncFailures: Queue;
  readonly configurationSet: CfnConfigurationSet;
  readonly emailEvents: Topic;
  readonly alarms: Alarms;

  constructor(scope: Construct, id: string, props: SurveyServiceProps & { data: SurveyDataStack }, table: ITable) {
    super(scope, id, { description: 'Satisfaction survey service: queues, SES events topic, alarm topic' });
    for (const [queueId, declared] of Object.entries(QUEUES) as [QueueId, (typeof QUEUES)[QueueId]][]) {
      const deadLetterQueue = new Queue(this, `${declared.name}Dlq`, { retentionPeriod: Duration.days(14), enforceSSL: true });
      acknowledgeDeadLetterQueue(deadLetterQueue);
      this.deadLetterQueues[queueId] = deadLetterQueue;
      this.queues[queueId] = new Queue(this, declared.name, {
        visibilityTimeout: Duration.seconds(QUEUE_VISIBILITY_TIMEOUT_SECONDS),
        // Four days, SQS's default, said out loud: a message must outlive its five receives (15 minutes) and a
        // delayed survey attempt (15 minutes) many times over; the dead-letter queue keeps failures for 14 days.
        retentionPeriod: Duration.days(4),
        enforceSSL: true,
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
      });
    }

    this.alarms = new Alarms(this, 'Alarms', { email: props.alarmEmail });
    for (const [queueId, dlq] of Object.entries(this.deadLetterQueues)) {
      this.alarms.add(
        `${QUEUES[queueId as QueueId].name}DlqNotEmpty`,
        'A message is in a dead-letter queue: inspect and redrive it (README, Operations)',
        dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        1,
      );
    }
    // Lambda's on-failure destination of every asynchronously invoked function: an invocation that failed its two
    // retries is recorded here (the event and the error) instead of being dropped.
    this.asyncFailures = new Queue(this, ASYNC_FAILURES.name, { retentionPeriod: Duration.days(14), enforceSSL: true });
    acknowledgeDeadLetterQueue(this.asyncFailures);
    this.alarms.add(
      `${ASYNC_FAILURES.name}NotEmpty`,
      'An asynchronous invocation (a scheduled run, an SES event) failed its retries: inspect and redrive it (README, Operations)',
      this.asyncFailures.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      1,
    );
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
    this.configurationSet = new CfnConfigurationSet(this, 'SurveyEmails', {
      reputationOptions: { reputationMetricsEnabled: true },
      sendingOptions: { sendingEnabled: true },
    });
    this.emailEvents = new Topic(this, 'SurveyEmailEvents', { enforceSSL: true });
    new CfnConfigurationSetEventDestination(this, 'SurveyEmailEventDestination', {
      configurationSetName: this.configurationSet.ref,
      eventDestination: {
        enabled: true,
        matchingEventTypes: ['BOUNCE', 'COMPLAINT'],
        snsDestination: { topicArn: this.emailEvents.topicArn },
      },
    });
    this.emailEvents.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('ses.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.emailEvents.topicArn],
        conditions: { StringEquals: { 'AWS:SourceAccount': Stack.of(this).account } },
      }),
    );
  }
}

/** A function whose role holds exactly its statements of infra/grants.ts, and the environment naming its resources. */
function serviceFunction(
  scope: Construct,
  shared: Shared,
  functionId: string,
  spec: {
    handler: string;
    description: string;
    timeout?: Duration;
    reservedConcurrency?: number | undefined;
    memorySize?: number;
    files?: readonly [string, string];
  },
): ServiceFunction {
  const { props, table, queues, secrets, configurationSet } = shared;
  const region = Stack.of(scope).region;
  const account = Stack.of(scope).account;
  /** The identities a provider may send from: those the deployment names, else any of this account's in the region. */
  const sendResources = (provider: Provider): string[] => {
    const given = props.senders?.[provider];
    const defaults: Record<Provider, string[]> = {
      ses: [`arn:aws:ses:${region}:${account}:identity/*`],
      sms: [`arn:aws:sms-voice:${region}:${account}:*`],
      whatsapp: [`arn:aws:social-messaging:${region}:${account}:phone-number-id/*`],
    };
    // SES authorises the configuration set a message names as well as its identity.
    return [
      ...(given ?? defaults[provider]),
      ...(provider === 'ses' ? [`arn:aws:ses:${region}:${account}:configuration-set/${configurationSet.ref}`] : []),
    ];
  };
  const surveyBaseUrl = () => {
    if (!shared.surveyBaseUrl) throw new Error(`${functionId} sends surveys: build it after the public API.`);
    return shared.surveyBaseUrl;
  };
  const statements = grantsOf(functionId);
  const fn = new ServiceFunction(scope, capitalise(functionId), {
    handler: spec.handler,
    description: spec.description,
    logRetention: props.logRetention,
    ...(spec.timeout ? { timeout: spec.timeout } : {}),
    ...(spec.reservedConcurrency ? { reservedConcurrentExecutions: spec.reservedConcurrency } : {}),
    ...(spec.memorySize ? { memorySize: spec.memorySize } : {}),
    ...(spec.files ? { files: spec.files } : {}),
    environment: environmentOf(functionId, {
      tableName: table.tableName,
      queueUrl: (queue) => queues[queue].queueUrl,
      secretArn: (secret) => secrets[secret].secretArn,
      surveyBaseUrl,
      sesConfigurationSet: () => configurationSet.ref,
    }),
  });

  /** Where each resource of infra/grants.ts is. */
  const arnsOf = (statement: Statement): string[] => {
    const { resource } = statement;
    switch (resource.kind) {
      case 'table':
        // Queries of the indexes name the index; single-item calls name the table.
        return statement.actions.includes('dynamodb:Query') ? [table.tableArn, `${table.tableArn}/index/*`] : [table.tableArn];
      case 'queue':
        return [queues[resource.queue].queueArn];
      case 'sender':
        return sendResources(resource.provider);
      case 'secret':
        return [secrets[resource.secret].secretArn];
      case 'logGroup':
        // The log group's ARN ends in `:*`: its log streams, the resources of CreateLogStream and PutLogEvents.
        return [fn.ownLogGroup.logGroupArn];
      case 'asyncFailures':
        return [shared.asyncFailures.queueArn];
    }
  };
  for (const statement of statements)
    fn.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: [...statement.actions], resources: arnsOf(statement) }));

  if (statements.some((s) => s.resource.kind === 'asyncFailures')) {
    // Lambda retries a failed asynchronous invocation twice, then sends the event and its error here (with this
    // role: the grant above; CDK's SqsDestination would add a second grant of its own).
    const onFailure: IDestination = { bind: () => ({ destination: shared.asyncFailures.queueArn }) };
    fn.configureAsyncInvoke({ retryAttempts: ASYNC_RETRY_ATTEMPTS, onFailure });
  }
  return fn;
}

/** The route groups of an API: one nested stack each, sized to stay far from a stack's limits as operations are added. */
const ROUTE_GROUPS: Record<string, string> = {
  store: 'Directory',
  employee: 'Directory',
  customer: 'Transactions',
  transaction: 'Transactions',
  transactions: 'Transactions',
  rating: 'Insights',
  results: 'Insights',
  webhooks: 'Insights',
  privacy: 'Privacy',
  admin: 'Admin',
  s: 'Pages',
  health: 'Pages',
  survey: 'Survey',
};

/** The route group of a route, by the first segment of its canonical path after its prefix (`/public`, `/v2`). */
export function routeGroupOf(route: Route): string {
  const segment = route.paths[0]!.replace(/^\/(public|v2|api\/v1)(?=\/)/, '').split('/')[1] ?? '';
  return ROUTE_GROUPS[segment] ?? 'Other';
}

/** One HTTP API: the HttpApi, its stage, access logs, authorizer and reference; its operations in route-group nested stacks. */
export class ApiStack extends NestedStack {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly authorizer: IHttpRouteAuthorizer;
  readonly url: string;

  constructor(scope: Construct, id: string, shared: Shared, name: ApiName) {
    super(scope, id, { description: `Satisfaction survey service: the ${name} API` });
    const { props, alarms } = shared;
    const origins = props.corsOrigins?.[name] ?? [];
    const api = new HttpApi(this, `${capitalise(name)}Api`, {
      apiName: `survey-service-${name}-${props.stage}`,
      createDefaultStage: false,
      ...(origins.length
        ? {
            corsPreflight: {
              allowOrigins: [...origins],
              allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.PUT, CorsHttpMethod.DELETE],
              allowHeaders: ['content-type', API_KEY_HEADER, USER_TOKEN_HEADER],
              exposeHeaders: ['x-request-id', 'retry-after'],
              maxAge: Duration.days(1),
            },
          }
        : {}),
    });
    const throttle = { ...DEFAULT_THROTTLE, ...props.throttle };
    // JSON access logs: who was answered what, how fast, and why an integration or the authorizer failed. The
    // route key, never the path: a survey page's path holds its link's token.
    const accessLogs = new LogGroup(this, `${capitalise(name)}AccessLogs`, {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const stage = new HttpStage(this, `${capitalise(name)}Stage`, {
      httpApi: api,
      stageName: props.stage,
      autoDeploy: true,
      throttle: { rateLimit: throttle.rate, burstLimit: throttle.burst },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: AccessLogField.contextRequestId(),
            time: AccessLogField.contextRequestTime(),
            route: '$context.routeKey',
            status: AccessLogField.contextStatus(),
            responseLength: AccessLogField.contextResponseLength(),
            latency: AccessLogField.contextResponseLatency(),
            integrationLatency: AccessLogField.contextIntegrationLatency(),
            integrationStatus: '$context.integrationStatus',
            integrationError: AccessLogField.contextIntegrationErrorMessage(),
            authorizerError: AccessLogField.contextAuthorizerError(),
            errorMessage: '$context.error.message',
          }),
        ),
      },
    });
    // The routes anyone may call get a tighter limit of their own (a JSON map: CloudFormation's own names).
    (stage.node.defaultChild as CfnStage).routeSettings = Object.fromEntries(
      [
        ...routes
          .filter((route) => route.api === name && route.anonymous)
          .flatMap((route) => route.paths.map((path) => `${route.method} ${path}`)),
        ...referencePaths(name).map((path) => `GET ${path}`),
      ].map((key) => [key, { ThrottlingRateLimit: throttle.anonymousRate, ThrottlingBurstLimit: throttle.anonymousBurst }]),
    );
    const authorizerFunction = serviceFunction(this, shared, authorizerId(name), {
      handler: authorizers[name].handler,
      description: `API key authorizer of the ${name} API`,
      memorySize: 256,
    });
    // Bound with the API's first keyed route, in this stack (the API's scope), whichever route group adds it.
    this.authorizer = new HttpLambdaAuthorizer(`${capitalise(name)}KeyAuthorizer`, authorizerFunction, {
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: [`$request.header.${API_KEY_HEADER}`],
      resultsCacheTtl: Duration.seconds(props.authorizerCacheTtlSeconds),
    });
    this.api = api;
    this.stage = stage;
    this.url = stage.url;
    alarms.add(
      `${capitalise(name)}Api5xxRate`,
      `More than 1% of ${name} API requests answered 5xx`,
      new MathExpression({
        expression: 'IF(requests > 0, 100 * errors / requests, 0)',
        usingMetrics: {
          errors: api.metricServerError({ period: Duration.minutes(5) }),
          requests: api.metricCount({ period: Duration.minutes(5) }),
        },
        period: Duration.minutes(5),
      }),
      1,
      this,
    );

    // The API's reference: its document and /docs, written at build time and served by a function of its own.
    const referenceFunction = serviceFunction(this, shared, referenceId(name), {
      handler: reference.handler,
      description: `GET /openapi.json and /docs: the ${name} API's reference`,
      memorySize: 256,
      files: [props.references[name], 'reference'],
    });
    const integration = new HttpLambdaIntegration(`${capitalise(name)}ReferenceIntegration`, referenceFunction, {
      scopePermissionToRoute: false,
    });
    for (const path of referencePaths(name)) this.addRoute(this, { path, method: 'GET', integration, anonymous: true });

    const groups = new Map<string, Route[]>();
    for (const route of routes.filter((r) => r.api === name))
      groups.set(routeGroupOf(route), [...(groups.get(routeGroupOf(route)) ?? []), route]);
    for (const [group, grouped] of groups) new RouteGroupStack(this, `${group}Routes`, shared, grouped);
  }

  /** Adds a route to this API, in `scope` (this stack or a route group's); an anonymous one gets the anonymous throttle. */
  addRoute(
    scope: Construct,
    route: { path: string; method: Route['method']; integration: HttpLambdaIntegration; anonymous?: boolean | undefined },
  ): HttpRoute {
    const added = new HttpRoute(scope, `${route.method}${route.path}`, {
      httpApi: this.api,
      routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
      integration: route.integration,
      ...(route.anonymous ? {} : { authorizer: this.authorizer }),
    });
    if (route.anonymous) {
      // The stage's settings for this route need the route to exist first.
      this.stage.node.addDependency(added);
      acknowledgeAnonymousRoute(added);
    }
    return added;
  }
}

/** A group of an API's operations: one function per operation, and its routes on the parent's HttpApi. */
export class RouteGroupStack extends NestedStack {
  constructor(scope: ApiStack, id: string, shared: Shared, grouped: readonly Route[]) {
    super(scope, id, { description: `Satisfaction survey service: ${grouped.map((r) => r.operationId).join(', ')}` });
    for (const route of grouped) {
      const fn = serviceFunction(this, shared, route.operationId, {
        handler: route.handler,
        description: `${route.method} ${route.paths[0]}: ${route.summary}`,
      });
      // One invoke permission per function, for its API, instead of one per route and path: the routes of an API
      // invoke only the functions they integrate anyway.
      const integration = new HttpLambdaIntegration(`${capitalise(route.operationId)}Integration`, fn, { scopePermissionToRoute: false });
      for (const path of route.paths) scope.addRoute(this, { path, method: route.method, integration, anonymous: route.anonymous });
    }
  }
}

/** The functions no API invokes: queue consumers, scheduled functions, the SES events function. */
export class WorkersStack extends NestedStack {
  constructor(scope: Construct, id: string, shared: Shared) {
    super(scope, id, { description: 'Satisfaction survey service: queue consumers, scheduled functions, SES events' });
    const { props, queues, alarms } = shared;
    /** A dead-letter queue of an EventBridge target or an SNS subscription, with an alarm on its first message. */
    const deadLetterQueueOf = (queueId: string) => {
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
    };

    for (const consumer of consumers) {
      const fn = serviceFunction(this, shared, consumer.id, {
        ...consumer,
        description: `${QUEUES[consumer.queue].name}: ${consumer.summary}`,
        timeout: Duration.seconds(CONSUMER_TIMEOUT_SECONDS),
      });
      // Up to a second's wait fills batches at moderate traffic: a tenth of the invocations, receives and deletes.
      acknowledgeQueueEventSource(fn);
      fn.addEventSource(
        new SqsEventSource(queues[consumer.queue], {
          batchSize: QUEUE_BATCH_SIZE,
          maxBatchingWindow: Duration.seconds(1),
          reportBatchItemFailures: true,
          ...(props.consumerMaxConcurrency ? { maxConcurrency: props.consumerMaxConcurrency } : {}),
        }),
      );
      alarms.add(
        `${capitalise(consumer.id)}Errors`,
        `${consumer.id} failed invocations`,
        fn.metricErrors({ period: Duration.minutes(5) }),
        1,
        this,
      );
      alarms.add(
        `${capitalise(consumer.id)}Throttles`,
        `${consumer.id} throttled invocations`,
        fn.metricThrottles({ period: Duration.minutes(5) }),
        1,
        this,
      );
      alarms.add(
        `${QUEUES[consumer.queue].name}OldestMessage`,
        `A message waited more than 15 minutes in ${QUEUES[consumer.queue].name}: its consumer is failing or falling behind`,
        queues[consumer.queue].metricApproximateAgeOfOldestMessage({ period: Duration.minutes(5), statistic: 'Maximum' }),
        900,
        this,
      );
    }

    // Scheduled functions: the survey attempts due later than the queue can delay, released every minute; the
    // personal copies past their tenant's retention, removed every quarter hour. EventBridge invokes them
    // asynchronously: a run that throws is retried twice by Lambda, then recorded on the async-failure queue.
    for (const job of scheduled) {
      const fn = serviceFunction(this, shared, job.id, {
        ...job,
        description: job.summary,
        timeout: Duration.seconds(job.timeoutSeconds ?? CONSUMER_TIMEOUT_SECONDS),
        reservedConcurrency: 1,
      });
      new Rule(this, `${capitalise(job.id)}Schedule`, {
        schedule: Schedule.rate(Duration.minutes(job.everyMinutes)),
        // EventBridge's own retries cover only handing the event to Lambda (throttled, or Lambda unavailable); an
        // event it cannot hand over lands in this dead-letter queue. The run's own failure is Lambda's to retry.
        targets: [
          new LambdaFunction(fn, {
            retryAttempts: 2,
            deadLetterQueue: deadLetterQueueOf(`${capitalise(job.id)}Dlq`),
          }),
        ],
      });
      alarms.add(`${capitalise(job.id)}Errors`, `${job.id} failed runs`, fn.metricErrors({ period: Duration.minutes(5) }), 3, this);
    }

    // SES bounce and complaint notifications: mark the address undeliverable, opt a complainer out.
    for (const spec of notified) {
      const fn = serviceFunction(this, shared, spec.id, { handler: spec.handler, description: spec.summary });
      // SNS retries only the delivery to Lambda; a notification it cannot deliver waits in this dead-letter queue.
      // Once delivered, the invocation is asynchronous: Lambda retries a failure twice, then records it on the
      // async-failure queue.
      shared.emailEvents.addSubscription(new LambdaSubscription(fn, { deadLetterQueue: deadLetterQueueOf(`${capitalise(spec.id)}Dlq`) }));
    }
  }
}
