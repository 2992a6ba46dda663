import { CfnOutput, Duration, RemovalPolicy, Stack, type CfnElement, type StackProps } from 'aws-cdk-lib';
import {
  type CfnStage,
  CorsHttpMethod,
  HttpApi,
  HttpMethod,
  HttpStage,
  LogGroupLogDestination,
  type IHttpRouteAuthorizer,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { AccessLogField, AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, BillingMode, Operation, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
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
  CONSUMER_TIMEOUT_SECONDS,
  MAX_RECEIVE_COUNT,
  QUEUE_BATCH_SIZE,
  QUEUES,
  QUEUE_VISIBILITY_TIMEOUT_SECONDS,
  type QueueId,
} from '../shared/queues.js';
import { TABLE } from '../shared/table.js';
import { capitalise } from '../shared/text.js';
import { USER_TOKEN_HEADER } from '../shared/http/handler.js';
import { API_KEY_HEADER } from '../shared/tenants/credentials.js';
import {
  acknowledgeAnonymousRoute,
  acknowledgeDeadLetterQueue,
  acknowledgeQueueEventSource,
  acknowledgeStackFindings,
} from './constructs/acknowledgments.js';
import { ServiceFunction } from './constructs/service-function.js';
import { authorizers, consumers, notified, reference, referencePaths, routes, scheduled, type ApiName, type Provider } from './routes.js';
import { authorizerId, environmentOf, grantsOf, type SecretId, type Statement } from './grants.js';

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

/** The whole service: one table, two queues with DLQs, two HTTP APIs, one function per operation of the route table. */
export class SurveyServiceStack extends Stack {
  constructor(scope: Construct, id: string, props: SurveyServiceProps) {
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

    const queues = {} as Record<QueueId, Queue>;
    const deadLetterQueues = {} as Record<QueueId, Queue>;
    for (const [queueId, declared] of Object.entries(QUEUES) as [QueueId, (typeof QUEUES)[QueueId]][]) {
      const deadLetterQueue = new Queue(this, `${declared.name}Dlq`, { retentionPeriod: Duration.days(14), enforceSSL: true });
      acknowledgeDeadLetterQueue(deadLetterQueue);
      deadLetterQueues[queueId] = deadLetterQueue;
      queues[queueId] = new Queue(this, declared.name, {
        visibilityTimeout: Duration.seconds(QUEUE_VISIBILITY_TIMEOUT_SECONDS),
        // Four days, SQS's default, said out loud: a message must outlive its five receives (15 minutes) and a
        // delayed survey attempt (15 minutes) many times over; the dead-letter queue keeps failures for 14 days.
        retentionPeriod: Duration.days(4),
        enforceSSL: true,
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
      });
      new CfnOutput(this, `${declared.name}Url`, { value: queues[queueId].queueUrl });
      new CfnOutput(this, `${declared.name}DlqUrl`, { value: deadLetterQueue.queueUrl });
    }

    const alarms = new Alarms(this, 'Alarms', { email: props.alarmEmail });
    /** A dead-letter queue of an EventBridge target or an SNS subscription, with an alarm on its first message. */
    const deadLetterQueueOf = (id: string) => {
      const queue = new Queue(this, id, { retentionPeriod: Duration.days(14), enforceSSL: true });
      acknowledgeDeadLetterQueue(queue);
      alarms.add(
        `${id}Messages`,
        `${id} holds a message that could not be delivered`,
        queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
        1,
      );
      return queue;
    };
    for (const [queueId, dlq] of Object.entries(deadLetterQueues)) {
      alarms.add(
        `${QUEUES[queueId as QueueId].name}DlqNotEmpty`,
        'A message is in a dead-letter queue: inspect and redrive it (README, Operations)',
        dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        1,
      );
    }
    alarms.add(
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

    // Signs v2 request ids; resolved into the two functions' environment at deploy time.
    const requestIdSecret = new Secret(this, 'RequestIdSecret', {
      description: 'Signs the request ids of POST /v2/transactions',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    // Signs survey links and derives each tenant's webhook secret.
    const surveySecret = new Secret(this, 'SurveySecret', {
      description: "Signs survey links and derives each tenant's chatbot webhook secret",
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    // Seals list cursors, which carry table keys.
    const cursorSecret = new Secret(this, 'CursorSecret', {
      description: 'Seals the cursors of paged lists',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    const secrets: Record<SecretId, Secret> = { requestIds: requestIdSecret, cursors: cursorSecret, surveyLinks: surveySecret };
    // Bounces and complaints of survey e-mails come back through this configuration set, to the SES events function.
    const configurationSet = new CfnConfigurationSet(this, 'SurveyEmails', {
      reputationOptions: { reputationMetricsEnabled: true },
      sendingOptions: { sendingEnabled: true },
    });
    const emailEvents = new Topic(this, 'SurveyEmailEvents', { enforceSSL: true });
    new CfnConfigurationSetEventDestination(this, 'SurveyEmailEventDestination', {
      configurationSetName: configurationSet.ref,
      eventDestination: {
        enabled: true,
        matchingEventTypes: ['BOUNCE', 'COMPLAINT'],
        snsDestination: { topicArn: emailEvents.topicArn },
      },
    });
    const region = Stack.of(this).region;
    const account = Stack.of(this).account;
    emailEvents.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('ses.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [emailEvents.topicArn],
        conditions: { StringEquals: { 'AWS:SourceAccount': account } },
      }),
    );
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

    /** Where each resource of infra/grants.ts is in this stack. */
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
      }
    };

    /** A function whose role holds exactly its statements of infra/grants.ts, and the environment naming its resources. */
    const serviceFunction = (
      functionId: string,
      spec: {
        handler: string;
        description: string;
        timeout?: Duration;
        reservedConcurrency?: number | undefined;
        memorySize?: number;
      },
    ) => {
      const statements = grantsOf(functionId);
      const fn = new ServiceFunction(this, capitalise(functionId), {
        handler: spec.handler,
        description: spec.description,
        logRetention: props.logRetention,
        ...(spec.timeout ? { timeout: spec.timeout } : {}),
        ...(spec.reservedConcurrency ? { reservedConcurrentExecutions: spec.reservedConcurrency } : {}),
        ...(spec.memorySize ? { memorySize: spec.memorySize } : {}),
        environment: environmentOf(functionId, {
          tableName: table.tableName,
          queueUrl: (queue) => queues[queue].queueUrl,
          secretArn: (secret) => secrets[secret].secretArn,
          surveyBaseUrl: () => apis.public.url,
          sesConfigurationSet: () => configurationSet.ref,
        }),
      });
      for (const statement of statements)
        fn.addToRolePolicy(new PolicyStatement({ effect: Effect.ALLOW, actions: [...statement.actions], resources: arnsOf(statement) }));
      return fn;
    };

    const apis = {} as Record<ApiName, { api: HttpApi; stage: HttpStage; authorizer: IHttpRouteAuthorizer; url: string }>;
    for (const name of ['public', 'chatbot'] as const) {
      const origins = props.corsOrigins?.[name] ?? [];
      for (const origin of origins)
        if (!/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i.test(origin))
          throw new Error(`${JSON.stringify(origin)} is not a browser origin such as https://app.example.com (no path, no wildcard).`);
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
      const authorizerFunction = serviceFunction(authorizerId(name), {
        handler: authorizers[name].handler,
        description: `API key authorizer of the ${name} API`,
        memorySize: 256,
      });
      const authorizer = new HttpLambdaAuthorizer(`${capitalise(name)}KeyAuthorizer`, authorizerFunction, {
        responseTypes: [HttpLambdaResponseType.SIMPLE],
        identitySource: [`$request.header.${API_KEY_HEADER}`],
        resultsCacheTtl: Duration.seconds(props.authorizerCacheTtlSeconds),
      });
      apis[name] = { api, stage, authorizer, url: stage.url };
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
      );
      new CfnOutput(this, `${capitalise(name)}ApiUrl`, { value: stage.url });
    }

    for (const consumer of consumers) {
      const fn = serviceFunction(consumer.id, {
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
      );
      alarms.add(
        `${capitalise(consumer.id)}Throttles`,
        `${consumer.id} throttled invocations`,
        fn.metricThrottles({ period: Duration.minutes(5) }),
        1,
      );
      alarms.add(
        `${QUEUES[consumer.queue].name}OldestMessage`,
        `A message waited more than 15 minutes in ${QUEUES[consumer.queue].name}: its consumer is failing or falling behind`,
        queues[consumer.queue].metricApproximateAgeOfOldestMessage({ period: Duration.minutes(5), statistic: 'Maximum' }),
        900,
      );
    }

    // Scheduled functions: the survey attempts due later than the queue can delay, released every minute; the
    // personal copies past their tenant's retention, removed every quarter hour.
    for (const job of scheduled) {
      const fn = serviceFunction(job.id, {
        ...job,
        description: job.summary,
        timeout: Duration.seconds(job.timeoutSeconds ?? CONSUMER_TIMEOUT_SECONDS),
        reservedConcurrency: 1,
      });
      new Rule(this, `${capitalise(job.id)}Schedule`, {
        schedule: Schedule.rate(Duration.minutes(job.everyMinutes)),
        // A run that cannot be invoked is retried; one still failing lands in a dead-letter queue (and its minutes
        // are released by the next run anyway: the checkpoint has not moved).
        targets: [
          new LambdaFunction(fn, {
            retryAttempts: 2,
            deadLetterQueue: deadLetterQueueOf(`${capitalise(job.id)}Dlq`),
          }),
        ],
      });
      alarms.add(`${capitalise(job.id)}Errors`, `${job.id} failed runs`, fn.metricErrors({ period: Duration.minutes(5) }), 3);
    }

    // SES bounce and complaint notifications: mark the address undeliverable, opt a complainer out.
    for (const spec of notified) {
      const fn = serviceFunction(spec.id, { handler: spec.handler, description: spec.summary });
      // Notifications SNS cannot deliver after its retries wait in a dead-letter queue instead of vanishing.
      emailEvents.addSubscription(new LambdaSubscription(fn, { deadLetterQueue: deadLetterQueueOf(`${capitalise(spec.id)}Dlq`) }));
    }

    for (const route of routes) {
      const fn = serviceFunction(route.operationId, {
        handler: route.handler,
        description: `${route.method} ${route.paths[0]}: ${route.summary}`,
      });

      // One invoke permission per function, for its API, instead of one per route and path: a stack holds at most
      // 500 resources, and the routes of an API invoke only the functions they integrate anyway.
      const integration = new HttpLambdaIntegration(`${capitalise(route.operationId)}Integration`, fn, { scopePermissionToRoute: false });
      const { api, authorizer } = apis[route.api];
      for (const path of route.paths) {
        const added = api.addRoutes({ path, methods: [HttpMethod[route.method]], integration, ...(route.anonymous ? {} : { authorizer }) });
        // The stage's settings for this route need the route to exist first.
        if (route.anonymous) {
          apis[route.api].stage.node.addDependency(...added);
          added.forEach(acknowledgeAnonymousRoute);
        }
      }
    }

    // Each API's reference: its document and /docs, written at build time and served by a function of its own.
    for (const name of ['public', 'chatbot'] as const) {
      const fn = new ServiceFunction(this, `${capitalise(name)}Reference`, {
        handler: reference.handler,
        description: `GET /openapi.json and /docs: the ${name} API's reference`,
        logRetention: props.logRetention,
        memorySize: 256,
        files: [props.references[name], 'reference'],
      });
      const integration = new HttpLambdaIntegration(`${capitalise(name)}ReferenceIntegration`, fn, { scopePermissionToRoute: false });
      for (const path of referencePaths(name)) {
        const added = apis[name].api.addRoutes({ path, methods: [HttpMethod.GET], integration });
        apis[name].stage.node.addDependency(...added);
        added.forEach(acknowledgeAnonymousRoute);
      }
    }

    acknowledgeStackFindings(this, this.getLogicalId(table.node.defaultChild as CfnElement));
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'SurveyBaseUrl', { value: apis.public.url, description: 'Survey links open <this>/s/<token>' });
    new CfnOutput(this, 'SesConfigurationSet', { value: configurationSet.ref });
    new CfnOutput(this, 'AlarmTopicArn', { value: alarms.topic.topicArn });
  }
}
