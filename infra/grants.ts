import { BUCKETS, type BucketId } from '../shared/buckets.js';
import { ENV, secretArnVariable, type EnvName, type SecretName } from '../shared/config.js';
import { QUEUES } from '../shared/queues.js';
import type { QueueId } from '../shared/queues.js';
import {
  authorizers,
  consumers,
  notified,
  routes,
  scheduled,
  sessionAuthorizer,
  workspaceRoutes,
  type ApiName,
  type Provider,
  type TableAccess,
} from './routes.js';

/**
 * What each deployed function may do, as IAM statements over the service's own resources. One function over the
 * route table: the CDK stack writes these statements into each function's role, and the local stack refuses every
 * SDK call outside them with AccessDeniedException (infra/local/iam.ts), so a grant that is too narrow fails a test
 * here instead of a request on AWS.
 */

/** The secrets a function may read at cold start (Secrets Manager), one per purpose. */
export type SecretId = 'requestIds' | 'cursors' | 'surveyLinks';

/** The environment variable that gives a function each secret. */
export const SECRET_ENV: Record<SecretId, SecretName> = {
  requestIds: ENV.requestIdSecret,
  cursors: ENV.cursorSecret,
  surveyLinks: ENV.surveySecret,
};

/** The service's object stores (areas of its bucket: shared/buckets.ts). */
export type { BucketId };

/** The environment variable that gives a function each bucket's name. */
export const BUCKET_ENV = Object.fromEntries(Object.entries(BUCKETS).map(([id, { env }]) => [id, env])) as Record<BucketId, EnvName>;

/** What a function may do with a bucket's objects: read them (GetObject, and HeadObject, which IAM authorises as it) or write them. */
export const BUCKET_ACTIONS = { read: ['s3:GetObject'], write: ['s3:PutObject'], delete: ['s3:DeleteObject'] } as const;
export type BucketAccess = keyof typeof BUCKET_ACTIONS;

/**
 * A resource of the service, named as the stack and the local stack both know it. `logGroup` is the function's own
 * log group (the runtime writes its logs with the function's role); `asyncFailures` the queue where Lambda records an
 * asynchronous invocation that failed its retries (ASYNC_FAILURES in shared/queues.ts), sent with the function's role.
 */
export type Resource =
  | { kind: 'table' }
  | { kind: 'queue'; queue: QueueId }
  | { kind: 'sender'; provider: Provider }
  | { kind: 'secret'; secret: SecretId }
  /** A bucket area's objects (arn:aws:s3:::<bucket>/<prefix>*). */
  | { kind: 'bucket'; bucket: BucketId }
  | { kind: 'logGroup' }
  | { kind: 'asyncFailures' }
  /**
   * The managers' Cognito user pool: its administrative actions (cognito-idp:Admin*) are IAM's to grant. The sign-in
   * operations (InitiateAuth, RespondToAuthChallenge, RevokeToken) are public, unsigned, outside IAM on AWS; the local
   * check lets them through for the same reason (infra/local/iam.ts). The users routes hold the Admin actions they
   * call (`userPoolActions` in the route table): createAdminUser AdminCreateUser and AdminGetUser (the tenant of an
   * address that has a sign-in already), updateAdminUser AdminGetUser (the sign-in user's tenant, checked before it
   * is changed), AdminDisableUser and AdminEnableUser; the users page AdminSetUserPassword too (an invitation sent
   * again: a new temporary password).
   */
  | { kind: 'userPool' }
  /** Amazon Comprehend's detection actions: they name no resource (IAM's `*`), and read nothing of the account. */
  | { kind: 'comprehend' };

export interface Statement {
  actions: readonly string[];
  resource: Resource;
}

/** What a function needs, as the route table, the consumers and the scheduled functions declare it. */
export interface Needs {
  table: TableAccess;
  /** Queues it sends to. */
  sends: readonly QueueId[];
  /** The queue its event source reads for it (Lambda's event source mapping uses the function's role). */
  consumes?: QueueId | undefined;
  providers?: readonly Provider[] | undefined;
  secrets?: readonly SecretId[] | undefined;
  /** Invoked asynchronously (by EventBridge or SNS): Lambda records a failed invocation on the async-failure queue. */
  async?: true | undefined;
  /** A customer-facing page that shows the tenant's logo: it is given the public base URL the logo is served under. */
  brandedPage?: true | undefined;
  /** Signs managers in or verifies their sessions: given the user pool's issuer and web client id. */
  userPool?: true | undefined;
  /** The buckets whose objects it reads or writes. */
  buckets?: Partial<Record<BucketId, readonly BucketAccess[]>> | undefined;
  /** The user pool's administrative actions it calls (the users routes: AdminCreateUser, AdminDisableUser...). */
  userPoolActions?: readonly string[] | undefined;
  /** Calls Comprehend's sentiment detection (COMPREHEND_ACTIONS). */
  comprehend?: true | undefined;
}

/**
 * DynamoDB's actions per access the route table names. Never Scan (no request path scans), never stream reads,
 * never DescribeTable: the code calls none of them. A TransactWriteItems call is authorised item by item as the
 * PutItem, UpdateItem or DeleteItem it holds; BatchWriteItem is an action of its own.
 */
export const TABLE_ACTIONS: Record<TableAccess[number], readonly string[]> = {
  read: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'],
  write: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
  delete: ['dynamodb:DeleteItem'],
  batchWrite: ['dynamodb:BatchWriteItem'],
  update: ['dynamodb:UpdateItem'],
};

/** What Lambda's SQS event source mapping does with the consumer's role (CDK's grantConsumeMessages). */
export const CONSUME_ACTIONS = [
  'sqs:ReceiveMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueUrl',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
] as const;

const SEND_ACTIONS: Record<Provider, string> = {
  ses: 'ses:SendEmail',
  sms: 'sms-voice:SendTextMessage',
  whatsapp: 'social-messaging:SendWhatsAppMessage',
};

/**
 * What the comment analysis asks Comprehend: a comment's sentiment, nothing else (no language, no key phrases: the
 * service reads those itself, issue 59; no custom models, no jobs, no PII actions).
 */
export const COMPREHEND_ACTIONS = ['comprehend:BatchDetectSentiment'] as const;

/** What the runtime does with the function's role to write its logs: its own log group only (no logs:* on `*`). */
export const LOG_ACTIONS = ['logs:CreateLogStream', 'logs:PutLogEvents'] as const;

/** The statements a function's role holds. */
export function statementsOf(needs: Needs): Statement[] {
  const tableActions = needs.table.flatMap((access) => TABLE_ACTIONS[access]);
  return [
    ...(tableActions.length ? [{ actions: tableActions, resource: { kind: 'table' } as const }] : []),
    ...needs.sends.map((queue) => ({ actions: ['sqs:SendMessage'], resource: { kind: 'queue', queue } as const })),
    ...(needs.consumes ? [{ actions: [...CONSUME_ACTIONS], resource: { kind: 'queue', queue: needs.consumes } as const }] : []),
    ...(needs.providers ?? []).map((provider) => ({ actions: [SEND_ACTIONS[provider]], resource: { kind: 'sender', provider } as const })),
    ...(needs.secrets ?? []).map((secret) => ({
      actions: ['secretsmanager:GetSecretValue'],
      resource: { kind: 'secret', secret } as const,
    })),
    ...(needs.async ? [{ actions: ['sqs:SendMessage'], resource: { kind: 'asyncFailures' } as const }] : []),
    ...(Object.entries(needs.buckets ?? {}) as [BucketId, readonly BucketAccess[]][]).map(([bucket, access]) => ({
      actions: access.flatMap((a) => BUCKET_ACTIONS[a]),
      resource: { kind: 'bucket', bucket } as const,
    })),
    ...(needs.userPoolActions?.length ? [{ actions: needs.userPoolActions, resource: { kind: 'userPool' } as const }] : []),
    ...(needs.comprehend ? [{ actions: [...COMPREHEND_ACTIONS], resource: { kind: 'comprehend' } as const }] : []),
    { actions: [...LOG_ACTIONS], resource: { kind: 'logGroup' } as const },
  ];
}

/** The secrets a function reads, from the route table's flags. */
export const secretsOf = (flags: { requestIds?: true; cursors?: true; surveyLinks?: true }): SecretId[] => [
  ...(flags.requestIds ? (['requestIds'] as const) : []),
  ...(flags.cursors ? (['cursors'] as const) : []),
  ...(flags.surveyLinks ? (['surveyLinks'] as const) : []),
];

/** The bucket areas a function reads or writes, from the route table's flags. */
const bucketsOf = (flags: { logos?: BucketAccess; exports?: BucketAccess; analytics?: readonly BucketAccess[] }): Needs['buckets'] =>
  flags.logos || flags.exports || flags.analytics
    ? {
        ...(flags.logos ? { logos: [flags.logos] } : {}),
        ...(flags.exports ? { exports: [flags.exports] } : {}),
        ...(flags.analytics ? { analytics: flags.analytics } : {}),
      }
    : undefined;

/** Every function the service deploys, by id (the stack's construct ids are these, capitalised). */
export const FUNCTIONS: ReadonlyMap<string, Needs> = new Map<string, Needs>([
  ...routes.map((route): [string, Needs] => [
    route.operationId,
    {
      table: route.table,
      sends: route.queues,
      secrets: secretsOf(route),
      buckets: bucketsOf(route),
      brandedPage: (route.page && route.surveyLinks) || route.links ? true : undefined,
      userPool: route.userPool,
      userPoolActions: route.userPoolActions,
      providers: route.providers,
    },
  ]),
  ...consumers.map((consumer): [string, Needs] => [
    consumer.id,
    {
      table: consumer.table,
      sends: consumer.sends,
      consumes: consumer.queue,
      providers: consumer.providers,
      secrets: secretsOf(consumer),
      buckets: bucketsOf(consumer),
      comprehend: consumer.comprehend,
      brandedPage: consumer.links,
    },
  ]),
  ...scheduled.map((job): [string, Needs] => [job.id, { table: job.table, sends: job.sends, async: true }]),
  // The key authorizers read keys and record a key's last use (one conditional UpdateItem per key every few minutes).
  ...(Object.keys(authorizers) as ApiName[]).map((api): [string, Needs] => [authorizerId(api), { table: ['read', 'update'], sends: [] }]),
  ...(Object.keys(authorizers) as ApiName[]).map((api): [string, Needs] => [referenceId(api), { table: [], sends: [] }]),
  ...notified.map((fn): [string, Needs] => [fn.id, { table: fn.table, sends: fn.sends, async: true }]),
  ...workspaceRoutes.map((route): [string, Needs] => [
    route.operationId,
    {
      table: route.table,
      sends: route.queues,
      secrets: secretsOf(route),
      buckets: bucketsOf(route),
      // A page that answers URLs of the public API's pages (the poster's QR code, a kiosk's address).
      brandedPage: route.links,
      userPool: route.userPool,
      userPoolActions: route.userPoolActions,
      providers: route.providers,
    },
  ]),
  [sessionAuthorizer.id, { table: [], sends: [], userPool: true }],
]);

export function authorizerId(api: ApiName): string {
  return `${api}Authorizer`;
}
export function referenceId(api: ApiName): string {
  return `${api}Reference`;
}

/** The statements of a deployed function; throws for a name that is not one (a typo would otherwise grant nothing). */
export function grantsOf(functionId: string): Statement[] {
  const needs = FUNCTIONS.get(functionId);
  if (!needs) throw new Error(`${functionId} is not a function of this service (infra/grants.ts FUNCTIONS).`);
  return statementsOf(needs);
}

/** Where a deployment's resources are: tokens in the CDK stack, real names and URLs in the local stack. */
export interface Locations {
  tableName: string;
  queueUrl(queue: QueueId): string;
  secretArn(secret: SecretId): string;
  /** The public API's URL, which survey links open. */
  surveyBaseUrl(): string;
  sesConfigurationSet(): string;
  /** The managers' user pool: its token issuer and the workspace's app client. */
  userPool(): { issuer: string; clientId: string };
  bucketName(bucket: BucketId): string;
}

/**
 * A function's environment: where each resource its statements name is, and nothing else. Secrets are given as their
 * ARN, never their value (shared/adapters/secrets.ts reads it at cold start). The stack deploys exactly this, and the
 * bundle test loads every function with exactly this, so a module that needs a variable its function is not given
 * fails a test rather than a cold start on AWS.
 */
export function environmentOf(functionId: string, at: Locations): Record<string, string> {
  const environment: Record<string, string> = {};
  if (FUNCTIONS.get(functionId)?.userPool) {
    const { issuer, clientId } = at.userPool();
    Object.assign(environment, { [ENV.userPoolIssuer]: issuer, [ENV.userPoolClientId]: clientId });
  }
  if (FUNCTIONS.get(functionId)?.brandedPage) environment[ENV.surveyBaseUrl] = at.surveyBaseUrl();
  for (const { actions, resource } of grantsOf(functionId)) {
    if (resource.kind === 'table') environment[ENV.tableName] = at.tableName;
    if (resource.kind === 'queue' && actions.includes('sqs:SendMessage'))
      environment[QUEUES[resource.queue].urlEnv] = at.queueUrl(resource.queue);
    if (resource.kind === 'secret') environment[secretArnVariable(SECRET_ENV[resource.secret])] = at.secretArn(resource.secret);
    if (resource.kind === 'bucket') environment[BUCKET_ENV[resource.bucket]] = at.bucketName(resource.bucket);
    if (resource.kind === 'sender')
      Object.assign(environment, { [ENV.surveyBaseUrl]: at.surveyBaseUrl(), SES_CONFIGURATION_SET: at.sesConfigurationSet() });
  }
  return environment;
}
