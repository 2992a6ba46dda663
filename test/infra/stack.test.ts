import { testApp } from '../support/cdk-app.js';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { beforeAll, describe, expect, it } from 'vitest';
import { customDomainFromContext, surveyService, type SurveyServiceProps } from '../../infra/stack.js';
import { consumers, notified, referencePaths, routes, scheduled, workspaceRoutes } from '../../infra/routes.js';
import { ASYNC_FAILURES, QUEUES, visibilityTimeoutOf, type QueueId } from '../../shared/queues.js';
import { FUNCTIONS, grantsOf, LOG_ACTIONS } from '../../infra/grants.js';
import { ENV, SECRET_NAMES, secretArnVariable } from '../../shared/config.js';
import { capitalise } from '../../shared/text.js';
import { TABLE } from '../../shared/table.js';
import { DATASET_IDS, glueColumnsOf } from '../../shared/analytics/datasets.js';
import { SAVED_QUERIES, savedQuerySql } from '../../shared/analytics/queries.js';
import { BYTES_SCANNED_PER_QUERY } from '../../infra/constructs/analytics.js';

/** Bundling is skipped here, so the reference directories are never read. */
const UNBUNDLED = { public: 'unbundled', chatbot: 'unbundled' };

type Resource = { Type: string; Properties: Record<string, any> };

/**
 * The deployment's stacks (the data stack, the service stack and its nested stacks), and one template of all their
 * resources: a logical id is unique across them but for a few routes each API stack declares alike, which are kept
 * under `<stack path>/<logical id>`. A function, its role and policies are always in one stack.
 */
function synthesize(name: string, props: Partial<SurveyServiceProps> = {}) {
  // Bundling is exercised by `npx cdk synth` and the benchmarks; here only the template matters.
  const app = testApp();
  const deployment = surveyService(app, name, {
    stage: 'test',
    logRetention: RetentionDays.ONE_MONTH,
    authorizerCacheTtlSeconds: 300,
    references: UNBUNDLED,
    ...props,
  });
  const merged: Record<string, Resource> = {};
  const outputs: Record<string, unknown> = {};
  const stackOf: Record<string, string> = {};
  const counts: Record<string, number> = {};
  for (const stack of deployment.stacks) {
    const json = Template.fromStack(stack).toJSON() as { Resources: Record<string, Resource>; Outputs?: Record<string, unknown> };
    counts[stack.node.path] = Object.keys(json.Resources).length;
    Object.assign(outputs, json.Outputs);
    for (const [id, resource] of Object.entries(json.Resources)) {
      const key = id in merged ? `${stack.node.path}/${id}` : id;
      if (key !== id) expect(resource.Type, key).toBe('AWS::ApiGatewayV2::Route');
      merged[key] = resource;
      stackOf[key] = stack.node.path;
    }
  }
  return { template: Template.fromJSON({ Resources: merged, Outputs: outputs }), resources: merged, stackOf, counts };
}

let template: Template;
let resources: Record<string, Resource>;
let stackOf: Record<string, string>;
let counts: Record<string, number>;

beforeAll(() => {
  ({ template, resources, stackOf, counts } = synthesize('Test'));
});

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

/** Every action the inline policies of a function's role allow, sorted, once each (its construct id is the capitalised id). */
function roleActions(functionId: string): string[] {
  const name = new RegExp(`^${capitalise(functionId)}[0-9A-F]{8}$`);
  const found = ofType('AWS::Lambda::Function').filter(([id]) => name.test(id));
  expect(found, functionId).toHaveLength(1);
  const roleId = found[0]![1].Properties.Role['Fn::GetAtt'][0];
  const actions = ofType('AWS::IAM::Policy')
    .filter(([id, p]) => stackOf[id] === stackOf[found[0]![0]] && p.Properties.Roles.some((role: { Ref: string }) => role.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement.flatMap((s: { Action: string | string[] }) => [s.Action].flat()));
  return [...new Set<string>(actions)].sort();
}

describe('the CDK stacks', () => {
  it('split the deployment so that every stack stays under 200 resources (CloudFormation allows 500)', () => {
    // Pinned: a new operation moves its route group's count; a group nearing 200 is split (routeGroupOf).
    expect(counts).toEqual({
      // The table, the user pool and its workspace client, the logo, export and analytics buckets and their policies,
      // three secrets; the analytics catalog: a Glue database, a table per dataset, the workgroup, its results bucket
      // and policy, a named query per saved query, and the analysts' managed policy.
      'Test-Data': 12 + 1 + DATASET_IDS.length + 3 + Object.keys(SAVED_QUERIES).length + 1,
      Test: 4,
      'Test/Messaging': 70,
      'Test/PublicApi': 34,
      // The workspace's pages in two stacks (infra/stacks/api.ts workspaceGroupOf): the tenant admins' pages apart.
      'Test/PublicApi/WorkspaceRoutes': 140,
      'Test/PublicApi/WorkspaceAdminRoutes': 126,
      'Test/PublicApi/PagesRoutes': 91,
      'Test/PublicApi/DirectoryRoutes': 112,
      'Test/PublicApi/TransactionsRoutes': 64,
      'Test/PublicApi/InsightsRoutes': 79,
      'Test/PublicApi/PrivacyRoutes': 28,
      'Test/PublicApi/AdminRoutes': 126,
      'Test/PublicApi/CasesRoutes': 28,
      'Test/ChatbotApi': 20,
      'Test/ChatbotApi/SurveyRoutes': 21,
      'Test/Workers': 128,
    });
    for (const [stack, count] of Object.entries(counts)) expect(count, stack).toBeLessThan(200);
  });

  it("share what the service stacks need through nested-stack parameters: the only exports are the retained data stack's", () => {
    const app = testApp();
    const { data, stacks } = surveyService(app, 'Exports', {
      stage: 'test',
      logRetention: RetentionDays.ONE_MONTH,
      authorizerCacheTtlSeconds: 300,
      references: UNBUNDLED,
    });
    for (const stack of stacks) {
      const exports = Object.values((Template.fromStack(stack).toJSON().Outputs ?? {}) as Record<string, { Export?: unknown }>).filter(
        (o) => o.Export,
      );
      if (stack === data) expect(exports.length).toBeGreaterThan(0);
      else expect(exports, stack.node.path).toEqual([]);
    }
    expect(Object.values(Template.fromStack(data).findResources('AWS::DynamoDB::Table'))[0]).toMatchObject({ DeletionPolicy: 'Retain' });
    for (const secret of Object.values(Template.fromStack(data).findResources('AWS::SecretsManager::Secret')))
      expect(secret).toMatchObject({ DeletionPolicy: 'Retain' });
  });

  it('gives each API function one invoke permission for its API', () => {
    const invokes = ofType('AWS::Lambda::Permission').filter(([, p]) => p.Properties.Principal === 'apigateway.amazonaws.com');
    // One per operation's function and workspace page, per API's reference and authorizer functions, and the workspace's
    // session authorizer, however many paths each serves.
    expect(invokes).toHaveLength(routes.length + workspaceRoutes.length + 2 + 2 + 1);
    // Each scoped to its API: any stage, method and path (an API invokes only the functions its routes integrate), or its authorizers.
    for (const [, permission] of invokes)
      expect(JSON.stringify(permission.Properties.SourceArn)).toMatch(
        /(Api[A-Z0-9]+|referenceto\w+Api[A-Z0-9]+Ref)"},"(\/\*\/\*\/\*"|\/authorizers\/",{"Ref":"\w+Authorizer)/,
      );
  });

  it('has one Node 24 arm64 function per operation and per consumer, one authorizer and one reference per API, and the SES events function', () => {
    const functions = ofType('AWS::Lambda::Function');
    expect(functions).toHaveLength(routes.length + workspaceRoutes.length + consumers.length + scheduled.length + 2 + 2 + 1 + 1);
    for (const [, fn] of functions) {
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], Handler: 'index.handler' });
      // JSON logs filtered by level; Lambda's START/END/REPORT lines (INFO) left out.
      expect(fn.Properties.LoggingConfig).toMatchObject({ LogFormat: 'JSON', SystemLogLevel: 'WARN', ApplicationLogLevel: 'INFO' });
    }
    for (const route of routes) {
      expect(functions.some(([, fn]) => String(fn.Properties.Description).startsWith(`${route.method} ${route.paths[0]}:`))).toBe(true);
    }
  });

  it('runs each scheduled function on its rate, with one run at a time, able to read the table and queue survey messages', () => {
    const rules = ofType('AWS::Events::Rule');
    expect(rules.map(([, r]) => r.Properties.ScheduleExpression)).toEqual(
      scheduled.map((job) => `rate(${job.everyMinutes} minute${job.everyMinutes > 1 ? 's' : ''})`),
    );
    const [, fn] = ofType('AWS::Lambda::Function').find(([, r]) => r.Properties.Description === scheduled[0]!.summary)!;
    expect(fn.Properties.ReservedConcurrentExecutions).toBe(1);
    expect(Object.keys(fn.Properties.Environment.Variables)).toEqual(expect.arrayContaining(['TABLE_NAME', 'SURVEY_DISPATCH_QUEUE_URL']));
  });

  it('throttles each stage, the routes anyone may call harder, and writes JSON access logs without paths or query strings', () => {
    const stages = ofType('AWS::ApiGatewayV2::Stage');
    expect(stages).toHaveLength(2);
    for (const [, stage] of stages) {
      expect(stage.Properties.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 });
      const format = JSON.parse(stage.Properties.AccessLogSettings.Format);
      expect(Object.keys(format)).toEqual(
        expect.arrayContaining(['requestId', 'route', 'status', 'latency', 'integrationError', 'authorizerError']),
      );
      expect(stage.Properties.AccessLogSettings.Format).not.toMatch(/\$context\.(path|identity\.sourceIp)|querystring/i);
    }
    const publicStage = stages.find(([id]) => id.startsWith('PublicStage'))![1];
    expect(Object.keys(publicStage.Properties.RouteSettings)).toEqual(
      expect.arrayContaining(['GET /health', 'GET /s/{token}', 'POST /s/{token}', 'POST /app/sign-in', 'POST /app/sign-in/new-password']),
    );
    // Password guesses meet a limit of their own too, under Cognito's (120 sign-ins a second by default).
    expect(publicStage.Properties.RouteSettings['POST /app/sign-in']).toEqual({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 });
    expect(publicStage.Properties.RouteSettings['POST /app/sign-in/new-password']).toEqual({
      ThrottlingRateLimit: 20,
      ThrottlingBurstLimit: 40,
    });
    expect(publicStage.Properties.RouteSettings['GET /health']).toEqual({ ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 });
  });

  it('sizes the routes of a large tenant and of a mass send for three tenants of 10 million sales a day at their peak and a send of 100,000 e-mails', () => {
    // Prepare: docs/operations.md#throttling. A tenant's peak hour is 10x its average: 10,000,000 / 86,400 x 10 = 1,157
    // sales a second, and 30% are answered (347 a second), each answer a page read and a post (or the chatbot's).
    const tenants = 3;
    const sales = Math.ceil((10_000_000 / 86_400) * 10);
    const answers = Math.ceil(sales * 0.3);
    // A send of 100,000 e-mails at once: 30% answer, half of them within 10 minutes, the first minute at 3x that.
    const sendClicks = Math.ceil(((100_000 * 0.3) / 2 / 600) * 3);
    const limit = (api: string, key: string) =>
      ofType('AWS::ApiGatewayV2::Stage').find(([id]) => id.startsWith(api))![1].Properties.RouteSettings[key] as {
        ThrottlingRateLimit: number;
        ThrottlingBurstLimit: number;
      };
    // Assess
    expect(limit('PublicStage', 'POST /v2/transactions').ThrottlingRateLimit).toBeGreaterThanOrEqual(tenants * sales);
    expect(limit('PublicStage', 'POST /public/transaction').ThrottlingRateLimit).toBeGreaterThanOrEqual(tenants * sales);
    for (const key of ['GET /s/{token}', 'POST /s/{token}', 'GET /brand/logos/{file}'])
      expect(limit('PublicStage', key).ThrottlingRateLimit, key).toBeGreaterThanOrEqual(tenants * answers + sendClicks);
    for (const key of ['GET /survey', 'POST /survey'])
      expect(limit('ChatbotStage', key).ThrottlingRateLimit, key).toBeGreaterThanOrEqual(tenants * answers);
    expect(limit('PublicStage', 'GET /s/{token}')).toEqual({ ThrottlingRateLimit: 1500, ThrottlingBurstLimit: 3000 });
    // A burst is twice the rate, up to the account's own burst quota (5,000).
    expect(limit('PublicStage', 'POST /v2/transactions')).toEqual({ ThrottlingRateLimit: 4000, ThrottlingBurstLimit: 5000 });
  });

  it("raises a route's limit by its operation id (context routeRates), and refuses a name that is no operation", () => {
    const raised = synthesize('Raised', { throttle: { routes: { getSurveyPage: 3000 } } }).resources;
    const [, stage] = Object.entries(raised).find(([id, r]) => r.Type === 'AWS::ApiGatewayV2::Stage' && id.startsWith('PublicStage'))!;
    expect(stage.Properties.RouteSettings['GET /s/{token}']).toEqual({ ThrottlingRateLimit: 3000, ThrottlingBurstLimit: 5000 });
    expect(stage.Properties.RouteSettings['POST /s/{token}']).toEqual({ ThrottlingRateLimit: 1500, ThrottlingBurstLimit: 3000 });
    expect(() => synthesize('Typo', { throttle: { routes: { getSurveyPages: 3000 } } })).toThrow(/getSurveyPages=3000 names no operation/);
  });

  it('flags no function as a local deployment: on AWS webhooks must be https on a public host', () => {
    const flagged = ofType('AWS::Lambda::Function').filter(([, fn]) => ENV.localDeployment in (fn.Properties.Environment?.Variables ?? {}));
    expect(flagged.map(([id]) => id)).toEqual([]);
  });

  it("puts no secret's value in any function's configuration: only the ARN of a secret its role may read", () => {
    const secretIds = ofType('AWS::SecretsManager::Secret').map(([id]) => id);
    expect(secretIds).toHaveLength(3);
    for (const [id, fn] of ofType('AWS::Lambda::Function')) {
      const variables = (fn.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
      expect(JSON.stringify(variables), id).not.toContain('resolve:secretsmanager');
      for (const name of SECRET_NAMES) expect(Object.keys(variables), id).not.toContain(name);
      for (const name of SECRET_NAMES.map(secretArnVariable).filter((n) => n in variables)) {
        // A reference to one of the data stack's secrets (imported from that retained stack), never a value.
        expect(JSON.stringify(variables[name]), `${id} ${name}`).toMatch(
          new RegExp(`"(Ref|Fn::ImportValue)":"[^"]*(${secretIds.join('|')})`),
        );
        const role = fn.Properties.Role['Fn::GetAtt'][0];
        const statements = ofType('AWS::IAM::Policy')
          .filter(([, p]) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === role))
          .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
        expect(statements, `${id} may read ${name}`).toContainEqual(
          expect.objectContaining({ Action: 'secretsmanager:GetSecretValue', Resource: variables[name] }),
        );
      }
    }
  });

  it('gives the cursor secret to the functions that page with cursors, and to no other', () => {
    for (const route of routes) {
      const [, fn] = ofType('AWS::Lambda::Function').find(([, r]) =>
        String(r.Properties.Description).startsWith(`${route.method} ${route.paths[0]}:`),
      )!;
      expect(Object.keys(fn.Properties.Environment.Variables).includes('CURSOR_SECRET_ARN'), route.operationId).toBe(
        route.cursors === true,
      );
    }
    expect(routes.filter((route) => route.cursors).map((route) => route.operationId)).toEqual([
      'listStores',
      'listCustomers',
      'listEmployees',
      'listEvaluations',
      'listAnswers',
      'replayWebhookDeliveries',
      'listAdminAudit',
      'listCases',
    ]);
  });

  it('routes every path of the route table and the references, with the authorizer on all but /health, the survey and QR pages, the logos, robots.txt and the references', () => {
    const declared = [
      ...[...routes, ...workspaceRoutes].flatMap((r) => r.paths.map((path) => ({ key: `${r.method} ${path}`, anonymous: !!r.anonymous }))),
      ...(['public', 'chatbot'] as const).flatMap((api) => referencePaths(api).map((path) => ({ key: `GET ${path}`, anonymous: true }))),
    ];
    const synthesized = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => ({
      key: r.Properties.RouteKey,
      anonymous: r.Properties.AuthorizationType === 'NONE',
    }));
    expect(synthesized.map((r) => r.key).sort()).toEqual(declared.map((r) => r.key).sort());
    for (const route of synthesized) {
      expect(route.anonymous, route.key).toBe(
        route.key === 'GET /health' ||
          / \/((s|q|d)\/\{token\}|k(\/\{token\})?$|docs|assets|results$|robots\.txt$|openapi\.json|app\/(sign-in|session\/)|brand\/logos\/)/.test(
            route.key,
          ),
      );
    }
    // The workspace's pages behind the session authorizer (no identity source, no cache), every other keyed route behind the key's.
    const [sessionId] = ofType('AWS::ApiGatewayV2::Authorizer').find(([, a]) => a.Properties.Name === 'SessionAuthorizer')!;
    expect(resources[sessionId]!.Properties).toMatchObject({
      IdentitySource: [],
      AuthorizerResultTtlInSeconds: 0,
      EnableSimpleResponses: true,
    });
    const behindSession = ofType('AWS::ApiGatewayV2::Route')
      .filter(([, r]) => JSON.stringify(r.Properties.AuthorizerId ?? '').includes('SessionAuthorizer'))
      .map(([, r]) => r.Properties.RouteKey as string)
      .sort();
    expect(behindSession).toEqual([
      'GET /app',
      'GET /app/admin',
      'GET /app/admin/brand',
      'GET /app/admin/general',
      'GET /app/admin/journeys',
      'GET /app/admin/keys',
      'GET /app/admin/qr',
      'GET /app/admin/regions',
      'GET /app/admin/themes',
      'GET /app/admin/users',
      'GET /app/admin/webhooks',
      'GET /app/answers',
      'GET /app/answers.csv',
      'GET /app/answers/exports/{id}',
      'GET /app/cases',
      'GET /app/cases/{id}',
      'GET /app/digest',
      'GET /app/results',
      'POST /app/admin/brand',
      'POST /app/admin/general',
      'POST /app/admin/journeys',
      'POST /app/admin/keys',
      'POST /app/admin/qr',
      'POST /app/admin/regions',
      'POST /app/admin/themes',
      'POST /app/admin/users',
      'POST /app/admin/webhooks',
      'POST /app/answers/exports',
      'POST /app/cases/{id}',
      'POST /app/cases/{id}/contact',
      'POST /app/digest',
    ]);
  });

  it('keeps the managers in a retained Cognito user pool: e-mail sign-in, optional TOTP MFA, a tenant attribute the web client cannot write', () => {
    const [pool] = ofType('AWS::Cognito::UserPool').map(([, r]) => r);
    expect(pool).toMatchObject({ DeletionPolicy: 'Retain' });
    expect(pool!.Properties).toMatchObject({
      UsernameAttributes: ['email'],
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      Schema: [{ Name: 'tenant_id', AttributeDataType: 'String', Mutable: false }],
    });
    const [client] = ofType('AWS::Cognito::UserPoolClient').map(([, r]) => r);
    expect(client!.Properties).toMatchObject({
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      GenerateSecret: false,
      PreventUserExistenceErrors: 'ENABLED',
      EnableTokenRevocation: true,
      WriteAttributes: [],
      ReadAttributes: ['custom:tenant_id', 'email', 'email_verified'],
    });
    // The session functions are told where the pool is: its issuer and the client, never a secret.
    for (const id of ['PostSignIn', 'SessionAuthorizer']) {
      const [, fn] = ofType('AWS::Lambda::Function').find(([key]) => key.startsWith(id))!;
      expect(Object.keys(fn.Properties.Environment.Variables)).toEqual(expect.arrayContaining(['USER_POOL_ISSUER', 'USER_POOL_CLIENT_ID']));
    }
  });

  it('has two HTTP APIs, each with its own stage and a cached key authorizer', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Api', 2);
    template.resourcePropertiesCountIs('AWS::ApiGatewayV2::Stage', { StageName: 'test', AutoDeploy: true }, 2);
    // CDK binds an authorizer to its API with its first route: count the APIs that have authorized routes.
    const apisWithKeys = new Set(routes.filter((r) => !r.anonymous).map((r) => r.api)).size;
    template.resourcePropertiesCountIs(
      'AWS::ApiGatewayV2::Authorizer',
      {
        AuthorizerType: 'REQUEST',
        EnableSimpleResponses: true,
        IdentitySource: ['$request.header.x-service-api-key'],
        AuthorizerResultTtlInSeconds: 300,
      },
      apisWithKeys,
    );
  });

  it('has the single table: on-demand, PITR, TTL and the declared indexes', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE.indexes.map((index) => Match.objectLike({ IndexName: index.name })),
    });
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain' });
  });

  it('keeps the logical ids of what holds data or is referenced from outside: a changed id is a new resource to CloudFormation', () => {
    // Pinned as deployed: a new id would replace the table (and lose its data), a secret (and invalidate every link,
    // request id and cursor in flight), a queue (and drop its messages), or a nested stack (and everything in it).
    // Moving a resource into a construct changes its path, and so its id: infra/stack.ts keeps each part in its stack's scope.
    const pinned: Record<string, string[]> = {
      'AWS::DynamoDB::Table': ['TableCD117FA1'],
      'AWS::Cognito::UserPool': ['ManagersA948B0DC'],
      'AWS::S3::Bucket': ['AnalyticsBucket39EAAEEA', 'AthenaResultsBucket879938FA', 'ExportBucket4E99310E', 'LogoBucketEB73FE35'],
      'AWS::SecretsManager::Secret': ['CursorSecretABAE1358', 'RequestIdSecretA55B4C7E', 'SurveySecret2DC653C3'],
      'AWS::SQS::Queue': [
        'AnalysisQueue251119DF',
        'AnalysisQueueDlq2099BD98',
        'AnalyticsQueue238D9515',
        'AnalyticsQueueDlq825D33BC',
        'AsyncFailureQueue12E179B5',
        'AttemptSchedulerDlq34ECEE50',
        'CaseDeadlineQueueA946D22E',
        'CaseDeadlineQueueDlq274D6EF3',
        'CaseQueue1D9A7E69',
        'CaseQueueDlqAC011126',
        'ChatQueue3053B7B3',
        'ChatQueueDlqA531E11A',
        'DigestQueueD48DE8C7',
        'DigestQueueDlq3CFA6569',
        'EventQueueDlqFF1FDC9D',
        'EventQueueFD722DCD',
        'ExportQueueC5F748C5',
        'ExportQueueDlqF05B4267',
        'PersonalCopiesExpiryDlqF1710A84',
        'PrivacyQueueDF586D34',
        'PrivacyQueueDlqCC4222FC',
        'ScoreDropQueue439CD943',
        'ScoreDropQueueDlq540B76F1',
        'SesEventsDlq23EE7D89',
        'SurveyDispatchQueue0821B1BC',
        'SurveyDispatchQueueDlq66BAC4B4',
        'TransactionQueueB08641A1',
        'TransactionQueueDlqCD425A46',
      ],
      'AWS::SNS::Topic': ['AlarmsTopic3A2DFEBA', 'SurveyEmailEventsE9225EE0'],
      'AWS::SES::ConfigurationSet': ['SurveyEmails'],
      'AWS::CloudFormation::Stack': [
        'AdminRoutesNestedStackAdminRoutesNestedStackResource438972D3',
        'CasesRoutesNestedStackCasesRoutesNestedStackResource79E6BC6F',
        'ChatbotApiNestedStackChatbotApiNestedStackResource1F4AD138',
        'DirectoryRoutesNestedStackDirectoryRoutesNestedStackResource23930F77',
        'InsightsRoutesNestedStackInsightsRoutesNestedStackResource1F25A33E',
        'MessagingNestedStackMessagingNestedStackResource44F98313',
        'PagesRoutesNestedStackPagesRoutesNestedStackResourceD454D589',
        'PrivacyRoutesNestedStackPrivacyRoutesNestedStackResource3B7D865F',
        'PublicApiNestedStackPublicApiNestedStackResource5861920E',
        'SurveyRoutesNestedStackSurveyRoutesNestedStackResource6C53797E',
        'TransactionsRoutesNestedStackTransactionsRoutesNestedStackResource58D4D6DB',
        'WorkersNestedStackWorkersNestedStackResourceCEAEF017',
        'WorkspaceAdminRoutesNestedStackWorkspaceAdminRoutesNestedStackResourceBB153F0C',
        'WorkspaceRoutesNestedStackWorkspaceRoutesNestedStackResource6925753F',
      ],
    };
    for (const [type, ids] of Object.entries(pinned))
      expect(
        ofType(type)
          .map(([id]) => id)
          .sort(),
        type,
      ).toEqual(ids);
  });

  it('gives each queue a dead-letter queue after 5 receives, and the scheduler target and SES subscription theirs, all TLS-only', () => {
    // The queues with their DLQs, each scheduled function's EventBridge target DLQ, the SES events subscription's
    // DLQ, and the async-failure queue.
    const queueCount = Object.keys(QUEUES).length;
    template.resourceCountIs('AWS::SQS::Queue', 2 * queueCount + scheduled.length + 1 + 1);
    template.resourcePropertiesCountIs('AWS::SQS::Queue', { MessageRetentionPeriod: 4 * 86_400 }, queueCount);
    const policies = Object.values(template.findResources('AWS::SQS::QueuePolicy'));
    expect(policies).toHaveLength(2 * queueCount + scheduled.length + 1 + 1);
    for (const policy of policies) expect(JSON.stringify(policy)).toContain('"aws:SecureTransport":"false"');
    template.hasResourceProperties('AWS::Events::Rule', { Targets: [Match.objectLike({ DeadLetterConfig: Match.anyValue() })] });
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'lambda', RedrivePolicy: Match.anyValue() });
    for (const queue of Object.keys(QUEUES) as QueueId[])
      template.resourcePropertiesCountIs(
        'AWS::SQS::Queue',
        { RedrivePolicy: Match.objectLike({ maxReceiveCount: 5 }), VisibilityTimeout: visibilityTimeoutOf(queue) },
        Object.keys(QUEUES).filter((other) => visibilityTimeoutOf(other as QueueId) === visibilityTimeoutOf(queue)).length,
      );
  });

  it("writes into each function's role exactly its statements of infra/grants.ts, the ones the local stack enforces", () => {
    for (const id of FUNCTIONS.keys()) {
      const expected = grantsOf(id).flatMap((statement) => statement.actions);
      expect(roleActions(id), id).toEqual([...new Set(expected)].sort());
    }
  });

  it('grants no function Scan, stream reads or DescribeTable, and DeleteItem or BatchWriteItem only where its code uses them', () => {
    const granted = Object.fromEntries([...FUNCTIONS.keys()].map((id) => [id, roleActions(id).filter((a) => a.startsWith('dynamodb:'))]));
    for (const actions of Object.values(granted))
      expect(actions.filter((a) => /Scan|GetRecords|GetShardIterator|DescribeStream|ListStreams|DescribeTable/.test(a))).toEqual([]);
    const withAction = (action: string) =>
      Object.keys(granted)
        .filter((id) => granted[id]!.includes(action))
        .sort();
    // Pinned: a change here is a change of what a role may do, to be read in review.
    expect(withAction('dynamodb:DeleteItem')).toEqual(
      // postSignIn forgets an account's failed sign-ins once it signs in. commentAnalyser deletes the list entries of
      // a theme a correction drops, personalCopiesExpiry those of a comment it strips. digestSender gives its claim
      // back when the e-mail fails, analyticsExporter its day's claim when the write fails.
      [
        'analyticsExporter',
        'caseDeadlines',
        'commentAnalyser',
        'digestSender',
        'personalCopiesExpiry',
        'postSignIn',
        'privacyRequests',
        'putEmployeeStores',
        'updateCustomer',
        'updateEmployee',
        'updateStore',
      ].sort(),
    );
    expect(withAction('dynamodb:BatchWriteItem')).toEqual(
      // putAdminConfig writes a replaced configuration's items and deletes those it no longer lists in batches of 25,
      // and so do the admin pages' forms and a store's create and edit that place it in a region, through the same service.
      [
        'answerExports',
        'createStore',
        'updateStore',
        'attemptScheduler',
        'postAppAdminBrand',
        'postAppAdminGeneral',
        'postAppAdminJourneys',
        'postAppAdminRegions',
        'postAppAdminThemes',
        'postAppAdminWebhooks',
        'putAdminConfig',
        'getAppAnswers',
        'getAppAnswersCsv',
        'getAppCase',
        'getAppCases',
        'getCase',
        'getCustomer',
        'getPrivacyExport',
        'listAnswers',
        'listCases',
        'listCustomers',
        'postAppCase',
        'postAppCaseContact',
        'revealCaseContact',
      ].sort(),
    );
    expect(withAction('dynamodb:PutItem').length).toBeGreaterThan(0);
    // The sale only queues; it reads the table only to check its key (the authorizer could not, or its answer was cached).
    expect(granted.postV2Transaction).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query']);
    // SES's bounces and complaints write an address's suppression and a customer's opt-out, and read nothing.
    expect(granted.sesEvents).toEqual(['dynamodb:PutItem', 'dynamodb:UpdateItem']);
    // The reads of personal data record their access-log entry: read, and the batch write of that entry; no other write.
    for (const id of [
      'getCustomer',
      'listCustomers',
      'getPrivacyExport',
      'listAnswers',
      'getAppAnswers',
      'getAppAnswersCsv',
      'listCases',
      'getCase',
      'revealCaseContact',
      'getAppCases',
      'getAppCase',
      'postAppCaseContact',
    ])
      expect(granted[id], id).toEqual(['dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem', 'dynamodb:GetItem', 'dynamodb:Query']);
    for (const route of routes.filter((r) => r.table.length === 1 && r.table[0] === 'read'))
      expect(granted[route.operationId], route.operationId).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query']);
    // The key authorizers read keys and mark a key's last use (UpdateItem, at most once per key every 5 minutes).
    expect(granted.publicAuthorizer).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
  });

  it('feeds each consumer from its queue in batches of 10, reporting failed records one by one', () => {
    template.resourcePropertiesCountIs(
      'AWS::Lambda::EventSourceMapping',
      { BatchSize: 10, MaximumBatchingWindowInSeconds: 1, FunctionResponseTypes: ['ReportBatchItemFailures'] },
      consumers.length,
    );
    for (const consumer of consumers) {
      const [, fn] = ofType('AWS::Lambda::Function').find(([, r]) => String(r.Properties.Description).includes(consumer.summary))!;
      // The queue's visibility timeout is six times its consumer's timeout (AWS guidance): 180 s, the exports' 1,800 s.
      expect(fn.Properties.Timeout * 6).toBeLessThanOrEqual(visibilityTimeoutOf(consumer.queue));
      expect(fn.Properties.Timeout, consumer.id).toBe(consumer.queue === 'exports' || consumer.queue === 'analytics' ? 300 : 30);
    }
  });

  it('lets only the functions that declare a queue send to it, and those invoked asynchronously send their failures', () => {
    const senders = ofType('AWS::IAM::Policy').filter(([, p]) =>
      JSON.stringify(p.Properties.PolicyDocument).includes('sqs:SendMessage'),
    ).length;
    expect(senders).toBe(
      [...routes, ...workspaceRoutes].filter((r) => r.queues.length).length +
        consumers.filter((c) => c.sends.length).length +
        // Every scheduled and SNS-invoked function: its own failures, to the async-failure queue.
        scheduled.length +
        notified.length,
    );
  });

  it('records every failed asynchronous invocation (scheduled runs, SES events) after two retries on one queue, with an alarm on its first message', () => {
    const [queueId] = ofType('AWS::SQS::Queue').find(([id]) => id.startsWith(ASYNC_FAILURES.name))!;
    const configs = ofType('AWS::Lambda::EventInvokeConfig');
    const asynchronous = [...scheduled.map((job) => job.id), ...notified.map((fn) => fn.id)];
    expect(configs).toHaveLength(asynchronous.length);
    for (const id of asynchronous) {
      const [fnId] = ofType('AWS::Lambda::Function').find(([logicalId]) => new RegExp(`^${capitalise(id)}[0-9A-F]{8}$`).test(logicalId))!;
      const [, config] = configs.find(([configId, c]) => c.Properties.FunctionName.Ref === fnId && stackOf[configId] === stackOf[fnId])!;
      expect(config.Properties, id).toMatchObject({ Qualifier: '$LATEST', MaximumRetryAttempts: 2 });
      // The destination is the Messaging stack's queue, handed to the Workers stack as a parameter.
      expect(JSON.stringify(config.Properties.DestinationConfig.OnFailure.Destination), id).toMatch(
        new RegExp(`${queueId.slice(0, -8)}\\w*Arn`),
      );
      // Lambda sends the record with the function's role: its statement of infra/grants.ts on that queue.
      expect(grantsOf(id)).toContainEqual({ actions: ['sqs:SendMessage'], resource: { kind: 'asyncFailures' } });
    }
    const alarm = ofType('AWS::CloudWatch::Alarm').find(([, a]) => a.Properties.AlarmDescription.includes('asynchronous invocation'));
    expect(alarm?.[1].Properties).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 1 });
    expect(JSON.stringify(alarm?.[1].Properties.Dimensions)).toContain(queueId);
  });

  it('gives every function a role of its own with no managed policy, writing only to its own log group', () => {
    const roles = ofType('AWS::IAM::Role');
    for (const [, role] of roles) expect(role.Properties.ManagedPolicyArns).toBeUndefined();
    for (const [fnId, fn] of ofType('AWS::Lambda::Function')) {
      const logGroup = fn.Properties.LoggingConfig.LogGroup.Ref as string;
      const roleId = fn.Properties.Role['Fn::GetAtt'][0];
      const statements = ofType('AWS::IAM::Policy')
        .filter(([policyId, p]) => stackOf[policyId] === stackOf[fnId] && p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
        .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
      const logs = statements.filter((st) => [st.Action].flat().some((a) => a.startsWith('logs:')));
      expect(logs, fnId).toEqual([{ Action: [...LOG_ACTIONS], Effect: 'Allow', Resource: { 'Fn::GetAtt': [logGroup, 'Arn'] } }]);
    }
  });

  it('alarms on DLQ messages, consumer errors, throttles and oldest message, table throttles and each API 5xx rate, through one SNS topic', () => {
    // Two topics: the alarms', and the one SES publishes bounces and complaints to.
    template.resourceCountIs('AWS::SNS::Topic', 2);
    const alarms = ofType('AWS::CloudWatch::Alarm');
    expect(alarms).toHaveLength(Object.keys(QUEUES).length + scheduled.length + 2 + consumers.length * 3 + scheduled.length + 2 + 1);
    for (const [, alarm] of alarms) expect(alarm.Properties.AlarmActions).toHaveLength(1);
    // Every alarm reads the platform's own metrics (SQS, Lambda, DynamoDB, API Gateway), which no change of our log
    // lines can stop: none reads a SurveyService metric, which a log line carries (docs/operations.md).
    const namespaces = alarms.flatMap(([, a]) => [
      a.Properties.Namespace,
      ...((a.Properties.Metrics ?? []) as { MetricStat?: { Metric: { Namespace: string } } }[]).map((m) => m.MetricStat?.Metric.Namespace),
    ]);
    expect(namespaces.filter(Boolean).length).toBeGreaterThanOrEqual(alarms.length);
    for (const namespace of namespaces.filter(Boolean)) expect(namespace).toMatch(/^AWS\//);
    // Every dead-letter queue: the queues', the scheduled functions' targets' and the SES subscription's; and the
    // async-failure queue.
    expect(alarms.filter(([, a]) => a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible')).toHaveLength(
      Object.keys(QUEUES).length + scheduled.length + 1 + 1,
    );
    expect(alarms.filter(([, a]) => a.Properties.MetricName === 'ApproximateAgeOfOldestMessage')).toHaveLength(consumers.length);
    // The only subscription: the SES events function on the SES topic (no alarm e-mail configured here).
    template.resourceCountIs('AWS::SNS::Subscription', 1);
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'lambda' });
  });

  it('sends surveys with grants for exactly the provider actions, through an SES configuration set that reports bounces and complaints', () => {
    const [, dispatcher] = ofType('AWS::Lambda::Function').find(([, r]) =>
      String(r.Properties.Description).startsWith('SurveyDispatchQueue'),
    )!;
    const role = dispatcher.Properties.Role['Fn::GetAtt'][0];
    const actions = ofType('AWS::IAM::Policy')
      .filter(([, p]) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === role))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement.flatMap((s: { Action: string | string[] }) => [s.Action].flat()));
    expect(actions).toEqual(expect.arrayContaining(['ses:SendEmail', 'sms-voice:SendTextMessage', 'social-messaging:SendWhatsAppMessage']));
    expect(actions.filter((a: string) => /^(ses|sms-voice|social-messaging):/.test(a)).sort()).toEqual([
      'ses:SendEmail',
      'sms-voice:SendTextMessage',
      'social-messaging:SendWhatsAppMessage',
    ]);
    expect(Object.keys(dispatcher.Properties.Environment.Variables)).toEqual(
      expect.arrayContaining(['SURVEY_SECRET_ARN', 'SURVEY_BASE_URL', 'SES_CONFIGURATION_SET', 'TABLE_NAME']),
    );
    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      EventDestination: Match.objectLike({ Enabled: true, MatchingEventTypes: ['BOUNCE', 'COMPLAINT'] }),
    });
  });

  it('lets only the senders and the users routes e-mail (the invitation: Cognito told to send nothing), the page also renew a temporary password', () => {
    const sending = [...FUNCTIONS.keys()].filter((id) => roleActions(id).includes('ses:SendEmail')).sort();
    // Pinned: the functions that send e-mail, each a change of what a role may do, to be read in review.
    expect(sending).toEqual(
      [
        'caseDeadlines',
        'caseOpener',
        'createAdminUser',
        'digestSender',
        'postAppAdminUsers',
        'scoreDropChecker',
        'surveyDispatcher',
      ].sort(),
    );
    for (const id of ['createAdminUser', 'postAppAdminUsers']) {
      const [, fn] = ofType('AWS::Lambda::Function').find(([key]) => new RegExp(`^${capitalise(id)}[0-9A-F]{8}$`).test(key))!;
      expect(Object.keys(fn.Properties.Environment.Variables), id).toContain('SURVEY_BASE_URL');
    }
    expect(roleActions('postAppAdminUsers')).toContain('cognito-idp:AdminSetUserPassword');
    expect(roleActions('createAdminUser')).not.toContain('cognito-idp:AdminSetUserPassword');
  });

  it('takes the alarm e-mail and the consumer concurrency cap from deploy-time settings', () => {
    const { template: configured } = synthesize('Configured', {
      logRetention: RetentionDays.ONE_WEEK,
      authorizerCacheTtlSeconds: 60,
      alarmEmail: 'ops@example.com',
      consumerMaxConcurrency: 5,
      corsOrigins: { public: ['https://app.example.com'] },
    });
    configured.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
    // The event source caps the consumers: messages wait in the queue instead of being throttled into the DLQ.
    configured.resourcePropertiesCountIs('AWS::Lambda::EventSourceMapping', { ScalingConfig: { MaximumConcurrency: 5 } }, consumers.length);
    expect(JSON.stringify(configured.findResources('AWS::Lambda::Function'))).not.toContain('"ReservedConcurrentExecutions":5');
    configured.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 7 });
    configured.resourcePropertiesCountIs('AWS::ApiGatewayV2::Authorizer', { AuthorizerResultTtlInSeconds: 60 }, 2);
    // Browsers at the configured origin may call the public API; the chatbot API admits none.
    const cors = Object.values(configured.findResources('AWS::ApiGatewayV2::Api')).map((api) => [
      api.Properties.Name,
      api.Properties.CorsConfiguration,
    ]);
    expect(Object.fromEntries(cors)).toEqual({
      'survey-service-public-test': {
        AllowOrigins: ['https://app.example.com'],
        AllowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
        AllowHeaders: ['content-type', 'x-service-api-key', 'x-service-user-token'],
        ExposeHeaders: ['x-request-id', 'retry-after'],
        MaxAge: 86400,
      },
      'survey-service-chatbot-test': undefined,
    });
  });

  it("serves each API's reference (/openapi.json, /docs and its assets) without a key, at a rate of its own (the workspace's pages load its assets), and admits no other origin by default", () => {
    for (const api of ['Public', 'Chatbot']) {
      const routeKeys = Object.values(template.findResources('AWS::ApiGatewayV2::Route'))
        .filter((route) => route.Properties.ApiId.Ref.startsWith(`${api}Api`))
        .filter((route) => ['GET /openapi.json', 'GET /docs', 'GET /assets/{asset}'].includes(route.Properties.RouteKey));
      expect(routeKeys.map((route) => route.Properties.AuthorizationType ?? 'NONE').sort()).toEqual(['NONE', 'NONE', 'NONE']);
      const [stage] = Object.values(template.findResources('AWS::ApiGatewayV2::Stage')).filter((s) =>
        s.Properties.ApiId.Ref.startsWith(`${api}Api`),
      );
      for (const key of ['GET /openapi.json', 'GET /docs', 'GET /assets/{asset}'])
        expect(stage!.Properties.RouteSettings[key], `${api} ${key}`).toEqual({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 });
    }
    expect(ofType('AWS::Lambda::Function').filter(([, fn]) => String(fn.Properties.Description).includes('reference'))).toHaveLength(2);
    for (const [, api] of ofType('AWS::ApiGatewayV2::Api')) expect(api.Properties.CorsConfiguration).toBeUndefined();
  });

  it('catalogues each analytics dataset in Glue with projected partitions, for a workgroup with a byte limit and the saved queries', () => {
    const tables = ofType('AWS::Glue::Table');
    expect(tables.map(([, t]) => t.Properties.TableInput.Name).sort()).toEqual([...DATASET_IDS].sort());
    for (const [id, table] of tables) {
      const input = table.Properties.TableInput;
      expect(stackOf[id]).toBe('Test-Data');
      expect(input.StorageDescriptor.Columns).toEqual(
        glueColumnsOf(input.Name).map(({ name, type, comment }) => ({ Name: name, Type: type, Comment: comment })),
      );
      expect(input.PartitionKeys.map((p: { Name: string; Type: string }) => [p.Name, p.Type])).toEqual([
        ['tenant', 'string'],
        ['date', 'string'],
      ]);
      // No crawler, no partition added: Athena projects each (tenant, day) to the key the export writes.
      expect(input.Parameters).toMatchObject({
        'projection.enabled': 'true',
        'projection.tenant.type': 'injected',
        'projection.date.type': 'date',
        'projection.date.format': 'yyyy-MM-dd',
      });
      expect(JSON.stringify(input.Parameters['storage.location.template'])).toContain(`/${input.Name}/tenant=\${tenant}/date=\${date}/`);
    }
    const [[, workGroup]] = ofType('AWS::Athena::WorkGroup') as [[string, Resource]];
    expect(workGroup.Properties.WorkGroupConfiguration).toMatchObject({
      EnforceWorkGroupConfiguration: true,
      BytesScannedCutoffPerQuery: BYTES_SCANNED_PER_QUERY,
      ResultConfiguration: {
        EncryptionConfiguration: { EncryptionOption: 'SSE_S3' },
        OutputLocation: { 'Fn::Join': ['', ['s3://', { Ref: 'AthenaResultsBucket879938FA' }, '/']] },
      },
    });
    const queries = ofType('AWS::Athena::NamedQuery').map(([, q]) => q.Properties.QueryString);
    expect(queries.sort()).toEqual((Object.keys(SAVED_QUERIES) as (keyof typeof SAVED_QUERIES)[]).map(savedQuerySql).sort());
  });

  it("gives one tenant's analysts a managed policy: the analytics workgroup, the catalogue read only, their tenant's days", () => {
    const [[id, policy]] = ofType('AWS::IAM::ManagedPolicy') as [[string, Resource]];
    expect(stackOf[id]).toBe('Test-Data');
    const statements = policy.Properties.PolicyDocument.Statement as {
      Sid: string;
      Action: string[];
      Resource: unknown;
      Condition?: unknown;
    }[];
    const text = (value: unknown) => JSON.stringify(value);
    const of = (sid: string) => statements.find((statement) => statement.Sid === sid)!;
    expect(statements.map((statement) => statement.Sid).sort()).toEqual([
      'AthenaWorkGroup',
      'GlueCatalogRead',
      'QueryResults',
      'TenantDays',
      'TenantDaysList',
    ]);
    // No statement reaches every resource, and none writes, deletes or lists outside the workgroup's results.
    for (const statement of statements) expect(text(statement.Resource), statement.Sid).not.toBe('"*"');
    expect(of('AthenaWorkGroup').Action.every((action) => action.startsWith('athena:'))).toBe(true);
    expect(of('AthenaWorkGroup').Action).not.toContain('athena:ListQueryExecutions');
    expect(text(of('AthenaWorkGroup').Resource)).toContain(':workgroup/",{"Ref":"AnalyticsWorkGroup"}');
    expect(of('GlueCatalogRead').Action.every((action) => /^glue:Get/.test(action))).toBe(true);
    expect(text(of('GlueCatalogRead').Resource)).toContain('AnalyticsDatabase');
    expect(of('TenantDays').Action).toEqual('s3:GetObject');
    const days = text(of('TenantDays').Resource);
    for (const dataset of DATASET_IDS) expect(days).toContain(`/${dataset}/tenant=\${aws:PrincipalTag/tenant}/*`);
    expect(days).toContain('AnalyticsBucket');
    expect(text(of('TenantDaysList').Condition)).toBe(
      text({ StringLike: { 's3:prefix': DATASET_IDS.map((dataset) => `${dataset}/tenant=\${aws:PrincipalTag/tenant}/*`) } }),
    );
    expect(text(of('QueryResults').Resource)).toContain('AthenaResultsBucket');
    expect(text(of('QueryResults').Resource)).not.toContain('AnalyticsBucket');
  });

  /** A bucket of the data stack by its construct id, and its bucket policy's statements. */
  const bucketNamed = (name: string) => {
    const [[id, bucket]] = ofType('AWS::S3::Bucket').filter(([key]) => new RegExp(`^${name}[0-9A-F]{8}$`).test(key)) as [
      [string, Resource & { DeletionPolicy?: string }],
    ];
    const [, policy] = ofType('AWS::S3::BucketPolicy').find(([, p]) => p.Properties.Bucket.Ref === id)!;
    return { id, bucket, statements: policy.Properties.PolicyDocument.Statement };
  };
  const PRIVATE = { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true };
  const TLS_ONLY = expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } });

  it("keeps the tenants' logos in a private, TLS-only, unversioned bucket, retained with the data, and nothing else there", () => {
    const { id, bucket, statements } = bucketNamed('LogoBucket');
    expect(stackOf[id]).toBe('Test-Data');
    expect(bucket.DeletionPolicy).toBe('Retain');
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual(PRIVATE);
    expect(bucket.Properties.VersioningConfiguration).toBeUndefined();
    // Logos are kept for as long as a brand names them: no lifecycle (the exports, which expire, are in their own bucket).
    expect(bucket.Properties.LifecycleConfiguration).toBeUndefined();
    expect(statements).toEqual(expect.arrayContaining([TLS_ONLY]));
  });

  it('keeps the answer exports in a bucket of their own: private, TLS only, encrypted, every file expired after a day', () => {
    const { id, bucket, statements } = bucketNamed('ExportBucket');
    expect(stackOf[id]).toBe('Test-Data');
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual(PRIVATE);
    expect(bucket.Properties.VersioningConfiguration).toBeUndefined();
    expect(bucket.Properties.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration).toEqual([
      { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } },
    ]);
    // Every file (and an upload that failed) expires after a day: an erased customer's data lasts no longer there.
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual([
      { Id: 'AnswerExports', Status: 'Enabled', ExpirationInDays: 1, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } },
    ]);
    expect(statements).toEqual(expect.arrayContaining([TLS_ONLY]));
    expect(JSON.stringify(template.toJSON().Outputs)).toContain('ExportBucketName');
  });

  it('lets only the logo route read the logo bucket and only the logo uploads (the API route and the brand page) write it, its objects only', () => {
    const users = (bucket: string) =>
      [...FUNCTIONS.keys()].filter((id) => grantsOf(id).some((s) => s.resource.kind === 'bucket' && s.resource.bucket === bucket)).sort();
    expect(users('logos')).toEqual(['createAdminLogo', 'getBrandLogo', 'postAppAdminBrand']);
    expect(roleActions('getBrandLogo').filter((action) => action.startsWith('s3:'))).toEqual(['s3:GetObject']);
    for (const writer of ['createAdminLogo', 'postAppAdminBrand'])
      expect(
        roleActions(writer).filter((action) => action.startsWith('s3:')),
        writer,
      ).toEqual(['s3:PutObject']);
    const policiesOf = (id: string) =>
      JSON.stringify(ofType('AWS::IAM::Policy').filter(([policyId]) => policyId.startsWith(capitalise(id))));
    for (const id of ['getBrandLogo', 'createAdminLogo', 'postAppAdminBrand']) {
      expect(policiesOf(id), id).toMatch(/LogoBucketName"\},"\/logos\/\*"/);
      expect(policiesOf(id), id).not.toContain('ExportBucketName');
    }
  });

  it('grants the export bucket to the export functions only: the consumer writes its files, the download route reads them (its presigned address)', () => {
    const users = (bucket: string) =>
      [...FUNCTIONS.keys()].filter((id) => grantsOf(id).some((s) => s.resource.kind === 'bucket' && s.resource.bucket === bucket)).sort();
    expect(users('exports')).toEqual(['answerExports', 'getAppAnswersExport']);
    expect(roleActions('answerExports').filter((action) => action.startsWith('s3:'))).toEqual(['s3:PutObject']);
    expect(roleActions('getAppAnswersExport').filter((action) => action.startsWith('s3:'))).toEqual(['s3:GetObject']);
    // In the template: no role but theirs names the export bucket, and theirs name no other bucket.
    const naming = ofType('AWS::IAM::Policy')
      .filter(([, policy]) => JSON.stringify(policy).includes('ExportBucketName'))
      .map(([id]) => id.replace(/RoleDefaultPolicy[0-9A-F]{8}$/, ''))
      .sort();
    expect(naming).toEqual(['AnswerExports', 'GetAppAnswersExport']);
    for (const id of ['answerExports', 'getAppAnswersExport']) {
      const policies = JSON.stringify(ofType('AWS::IAM::Policy').filter(([policyId]) => policyId.startsWith(capitalise(id))));
      expect(policies, id).toMatch(/ExportBucketName"\},"\/\*"/);
      expect(policies, id).not.toMatch(/LogoBucketName|AnalyticsBucketName/);
    }
  });

  describe('the custom link domain', () => {
    /** The context `cdk synth -c customDomain=... -c certificateArn=...` gives the app (infra/app.ts reads it so). */
    const fromContext = (context: Record<string, string>) => {
      const app = testApp(context);
      return customDomainFromContext((name) => app.node.tryGetContext(name));
    };
    const CERTIFICATE = 'arn:aws:acm:us-east-1:111111111111:certificate/x';
    const baseUrlOf = (resources: Record<string, Resource>) =>
      Object.values(resources).find(
        (r) => r.Type === 'AWS::Lambda::Function' && String(r.Properties.Description).startsWith('SurveyDispatchQueue'),
      )!.Properties.Environment.Variables.SURVEY_BASE_URL;

    it('gives the public API a domain name mapped to its stage, and survey links open on it', () => {
      const customDomain = fromContext({ customDomain: 'pesquisa.example.com', certificateArn: CERTIFICATE });
      const { template: custom, resources: customResources } = synthesize('Domain', { customDomain });
      custom.resourceCountIs('AWS::ApiGatewayV2::DomainName', 1);
      custom.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
        DomainName: 'pesquisa.example.com',
        DomainNameConfigurations: [Match.objectLike({ CertificateArn: CERTIFICATE, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' })],
      });
      // Mapped at the domain's root to the public API's stage, not the chatbot API's.
      const [mapping] = Object.values(custom.findResources('AWS::ApiGatewayV2::ApiMapping'));
      expect(mapping).toBeDefined();
      expect(Object.values(custom.findResources('AWS::ApiGatewayV2::ApiMapping'))).toHaveLength(1);
      expect(mapping!.Properties.ApiMappingKey).toBeUndefined();
      const publicApiId = Object.entries(customResources).find(
        ([, r]) => r.Type === 'AWS::ApiGatewayV2::Api' && r.Properties.Name === 'survey-service-public-test',
      )![0];
      expect(mapping!.Properties.ApiId).toEqual({ Ref: publicApiId });
      expect(baseUrlOf(customResources)).toBe('https://pesquisa.example.com');
      const outputs = custom.toJSON().Outputs as Record<string, { Value: unknown; Description?: string }>;
      expect(outputs.SurveyBaseUrl!.Value).toBe('https://pesquisa.example.com');
      expect(outputs.CustomDomainTarget!.Description).toBe('Create the DNS record: pesquisa.example.com CNAME <this>');
    });

    it('without the context, has no domain name and links on the execute-api URL as before', () => {
      expect(fromContext({})).toBeUndefined();
      template.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
      template.resourceCountIs('AWS::ApiGatewayV2::ApiMapping', 0);
      expect(JSON.stringify(baseUrlOf(resources))).toContain('execute-api');
      expect(Object.keys(template.toJSON().Outputs)).not.toContain('CustomDomainTarget');
    });

    it('refuses half a setting, a domain that is not one and an ARN that is not a certificate', () => {
      expect(() => fromContext({ customDomain: 'pesquisa.example.com' })).toThrow(/Give both customDomain and certificateArn/);
      expect(() => fromContext({ certificateArn: CERTIFICATE })).toThrow(/Give both customDomain and certificateArn/);
      expect(() => fromContext({ customDomain: 'https://pesquisa.example.com', certificateArn: CERTIFICATE })).toThrow(
        /is not a domain name such as pesquisa.example.com/,
      );
      expect(() => fromContext({ customDomain: 'pesquisa.example.com', certificateArn: 'arn:aws:iam::1:role/x' })).toThrow(
        /is not an ACM certificate ARN/,
      );
    });
  });

  it('refuses a CORS origin that is a wildcard or has a path', () => {
    for (const origin of ['*', 'https://*.example.com', 'https://app.example.com/', 'app.example.com'])
      expect(() => synthesize('Cors', { corsOrigins: { chatbot: [origin] } }), origin).toThrow(/is not a browser origin/);
  });

  it('outputs both base URLs, the table name and the queue URLs', () => {
    const outputs = Object.keys(template.toJSON().Outputs);
    for (const name of [
      'PublicApiUrl',
      'ChatbotApiUrl',
      'TableName',
      'TransactionQueueUrl',
      'SurveyDispatchQueueUrl',
      'TransactionQueueDlqUrl',
    ]) {
      expect(outputs).toContain(name);
    }
  });
});
