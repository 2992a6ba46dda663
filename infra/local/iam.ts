import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { HttpRequest, HttpResponse } from '@smithy/types';
import { ENV, secretArnVariable } from '../../shared/config.js';
import { ASYNC_FAILURES, QUEUES, type QueueId } from '../../shared/queues.js';
import { BUCKETS } from '../../shared/buckets.js';
import { grantsOf, SECRET_ENV, type BucketId, type Resource, type SecretId, type Statement } from '../grants.js';

/**
 * IAM, locally. On AWS each function's role allows exactly the statements infra/grants.ts gives it, and any other call
 * is refused with AccessDeniedException. The emulators ignore credentials, so this module stands in for IAM: every
 * request an AWS SDK client sends while a function runs (`runAs`) is checked, on the wire, against that function's
 * statements, and refused with the very HTTP answer the service gives, which the SDK turns into its usual
 * AccessDeniedException. Calls made outside a function (test setup, the admin command, the local pollers' own
 * bookkeeping) are the operator's and pass.
 */

/** One per process, even when a test reloads this module (vi.resetModules): the patch below must see the same store. */
const shared = ((globalThis as { [key: symbol]: unknown })[Symbol.for('survey-service.local-iam')] ??= {
  running: new AsyncLocalStorage<string>(),
  installed: false,
}) as { running: AsyncLocalStorage<string>; installed: boolean };
const { running } = shared;

/** Runs `work` as the deployed function `functionId`: the SDK calls it makes, and those it starts, are checked. */
export function runAs<T>(functionId: string, work: () => Promise<T>): Promise<T> {
  grantsOf(functionId); // an unknown function fails here, not with a puzzling denial later
  enforceGrants();
  return running.run(functionId, work);
}

const ACCOUNT = '000000000000';

/** A request as IAM sees it: the action, and the resources it names. */
interface Call {
  service: string;
  action: string;
  resource: Resource | { kind: 'other'; arn: string };
  arn: string;
}

/** Puts the check in front of every SDK client of this process (they all send through NodeHttpHandler). Idempotent. */
export function enforceGrants(): void {
  if (shared.installed) return;
  shared.installed = true;
  const handle = NodeHttpHandler.prototype.handle;
  NodeHttpHandler.prototype.handle = async function (this: NodeHttpHandler, request, options) {
    const functionId = running.getStore();
    if (functionId !== undefined) {
      const denied = authorize(functionId, request);
      if (denied) return { response: denied };
    }
    return handle.call(this, request, options);
  };
}

/** The refusal of the first call of `request` that `functionId`'s statements do not allow, or undefined. */
export function authorize(functionId: string, request: HttpRequest): HttpResponse | undefined {
  const statements = grantsOf(functionId);
  for (const call of callsOf(request)) {
    if (!statements.some((statement) => allows(statement, call))) return accessDenied(functionId, call);
  }
  return undefined;
}

const allows = (statement: Statement, call: Call) =>
  statement.actions.includes(`${call.service}:${call.action}`) && sameResource(statement.resource, call.resource);

function sameResource(granted: Resource, asked: Call['resource']): boolean {
  if (granted.kind !== asked.kind) return false;
  switch (granted.kind) {
    case 'table':
      return true;
    case 'queue':
      return asked.kind === 'queue' && asked.queue === granted.queue;
    case 'sender':
      return asked.kind === 'sender' && asked.provider === granted.provider;
    case 'secret':
      return asked.kind === 'secret' && asked.secret === granted.secret;
    case 'bucket':
      return asked.kind === 'bucket' && asked.bucket === granted.bucket;
    case 'logGroup':
    case 'asyncFailures':
    case 'userPool':
    case 'comprehend':
      return true;
  }
}

/** The signing name in the request's credential scope: `Credential=<key>/<date>/<region>/<service>/aws4_request`. */
const serviceOf = (request: HttpRequest) =>
  /Credential=[^/]+\/\d+\/[^/]+\/([^/]+)\//.exec(String(request.headers.authorization ?? ''))?.[1];

/** The actions of the REST services, by method and path. */
const REST_ACTIONS: { service: string; method: string; path: RegExp; action: string; provider: 'ses' | 'whatsapp' }[] = [
  { service: 'ses', method: 'POST', path: /^\/v2\/email\/outbound-emails$/, action: 'SendEmail', provider: 'ses' },
  { service: 'social-messaging', method: 'POST', path: /^\/v1\/whatsapp\/send$/, action: 'SendWhatsAppMessage', provider: 'whatsapp' },
];

/** The IAM action names of SQS's batch calls: a batch is authorised as the action it repeats. */
const SQS_ACTIONS: Record<string, string> = {
  SendMessageBatch: 'SendMessage',
  DeleteMessageBatch: 'DeleteMessage',
  ChangeMessageVisibilityBatch: 'ChangeMessageVisibility',
};

/**
 * Cognito's operations that are public on AWS: unsigned (the SDK sends them without credentials), authorised by the
 * app client id and the user's own password or token, never by IAM. Any other Cognito call is IAM's (cognito-idp:*).
 */
const PUBLIC_COGNITO_OPERATIONS = new Set([
  'InitiateAuth',
  'RespondToAuthChallenge',
  'RevokeToken',
  'GlobalSignOut',
  'GetUser',
  'ChangePassword',
  'ForgotPassword',
  'ConfirmForgotPassword',
  'SignUp',
  'ConfirmSignUp',
  'AssociateSoftwareToken',
  'VerifySoftwareToken',
  'SetUserMFAPreference',
]);
const COGNITO_TARGET = 'AWSCognitoIdentityProviderService.';

/** The calls one request makes, as IAM authorises them (a transaction: one per item). */
function callsOf(request: HttpRequest): Call[] {
  const target = String(request.headers['x-amz-target'] ?? '');
  const operation = target.split('.')[1];
  if (target.startsWith(COGNITO_TARGET)) {
    // A public operation is not IAM's: nothing to check (it passes here as on AWS, whoever calls it).
    if (PUBLIC_COGNITO_OPERATIONS.has(operation ?? '')) return [];
    return [
      {
        service: 'cognito-idp',
        action: operation ?? 'unknown',
        resource: { kind: 'userPool' },
        arn: `arn:aws:cognito-idp:us-east-1:${ACCOUNT}:userpool/${String(parseBody(request.body).UserPoolId ?? '*')}`,
      },
    ];
  }
  const service = serviceOf(request) ?? 'unknown';
  const body = parseBody(request.body);
  switch (service) {
    case 'dynamodb':
      return dynamoCalls(operation ?? 'unknown', body);
    case 'sqs': {
      const action = SQS_ACTIONS[operation ?? ''] ?? operation ?? 'unknown';
      const queue = queueOf(String(body.QueueUrl ?? ''));
      const name =
        String(body.QueueUrl ?? '')
          .split('/')
          .pop() ?? '*';
      return [
        {
          service,
          action,
          resource: queue
            ? { kind: 'queue', queue }
            : name === ASYNC_FAILURES.name || name.startsWith(`${ASYNC_FAILURES.name}-`)
              ? { kind: 'asyncFailures' }
              : { kind: 'other', arn: name },
          arn: `arn:aws:sqs:us-east-1:${ACCOUNT}:${name}`,
        },
      ];
    }
    case 'sms-voice':
      return [
        {
          service,
          action: operation ?? 'unknown',
          resource: { kind: 'sender', provider: 'sms' },
          arn: `arn:aws:sms-voice:us-east-1:${ACCOUNT}:*`,
        },
      ];
    case 'secretsmanager': {
      const id = String(body.SecretId ?? '');
      const secret = secretOf(id);
      return [
        {
          service,
          action: operation ?? 'unknown',
          resource: secret ? { kind: 'secret', secret } : { kind: 'other', arn: id },
          arn: `arn:aws:secretsmanager:us-east-1:${ACCOUNT}:secret:${id}`,
        },
      ];
    }
    case 's3':
      return [s3Call(request)];
    case 'comprehend':
      return [
        {
          service,
          action: operation ?? 'unknown',
          resource: { kind: 'comprehend' },
          arn: '*',
        },
      ];
    default: {
      const rest = REST_ACTIONS.find((r) => r.service === service && r.method === request.method && r.path.test(request.path));
      return [
        {
          service,
          action: rest?.action ?? `${request.method} ${request.path}`,
          resource: rest ? { kind: 'sender', provider: rest.provider } : { kind: 'other', arn: '*' },
          arn: `arn:aws:${service}:us-east-1:${ACCOUNT}:*`,
        },
      ];
    }
  }
}

/**
 * An S3 REST call as IAM sees it: the action from the method and whether the path names an object (HeadObject is
 * authorised as s3:GetObject), the resource `arn:aws:s3:::<bucket>/<key>`. The bucket is the path's first segment
 * (path-style, as the local server is called) or the host's first label (virtual-hosted, as on AWS).
 */
function s3Call(request: HttpRequest): Call {
  const hostBucket = /^(.+)\.s3[.-]/.exec(request.hostname)?.[1];
  const segments = request.path.replace(/^\//, '').split('/');
  const bucket = hostBucket ?? decodeURIComponent(segments.shift() ?? '');
  const key = segments.join('/');
  const action = key
    ? ({ GET: 'GetObject', HEAD: 'GetObject', PUT: 'PutObject', DELETE: 'DeleteObject', POST: 'PutObject' }[request.method] ??
      request.method)
    : ({ GET: 'ListBucket', HEAD: 'ListBucket', PUT: 'CreateBucket', DELETE: 'DeleteBucket' }[request.method] ?? request.method);
  const known = bucketOf(bucket, decodeURIComponent(key));
  return {
    service: 's3',
    action,
    resource: known && key ? { kind: 'bucket', bucket: known } : { kind: 'other', arn: bucket },
    arn: `arn:aws:s3:::${bucket}${key ? `/${decodeURIComponent(key)}` : ''}`,
  };
}

/** Which of the service's bucket areas an object is, by the environment that names each bucket and the area's prefix. */
const bucketOf = (name: string, key: string): BucketId | undefined =>
  (Object.keys(BUCKETS) as BucketId[]).find(
    (bucket) => name !== '' && process.env[BUCKETS[bucket].env] === name && key.startsWith(BUCKETS[bucket].prefix),
  );

const TRANSACT_ACTIONS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
  Get: 'GetItem',
};

function dynamoCalls(operation: string, body: Record<string, unknown>): Call[] {
  const tableCall = (action: string, tableName: unknown): Call => ({
    service: 'dynamodb',
    action,
    resource: tableName === process.env[ENV.tableName] ? { kind: 'table' } : { kind: 'other', arn: String(tableName) },
    arn: `arn:aws:dynamodb:us-east-1:${ACCOUNT}:table/${String(tableName)}`,
  });
  if (operation === 'TransactWriteItems' || operation === 'TransactGetItems') {
    // No action of their own: each item is authorised as the single-item call it is.
    return ((body.TransactItems ?? []) as Record<string, { TableName?: string }>[]).flatMap((item) =>
      Object.entries(item).map(([kind, spec]) => tableCall(TRANSACT_ACTIONS[kind] ?? kind, spec.TableName)),
    );
  }
  if (operation === 'BatchGetItem' || operation === 'BatchWriteItem')
    return Object.keys((body.RequestItems ?? {}) as object).map((name) => tableCall(operation, name));
  return [tableCall(operation, body.TableName)];
}

/** Which of the service's queues a URL names, by the environment that names each queue's URL. */
const queueOf = (url: string): QueueId | undefined =>
  (Object.keys(QUEUES) as QueueId[]).find((queue) => url !== '' && process.env[QUEUES[queue].urlEnv] === url);

/** Which of the service's secrets an id names, by the environment that gives each secret's ARN. */
const secretOf = (id: string): SecretId | undefined =>
  (Object.keys(SECRET_ENV) as SecretId[]).find((secret) => id !== '' && process.env[secretArnVariable(SECRET_ENV[secret])] === id);

function parseBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) return {};
  try {
    // The bytes themselves: the SDK's JSON body warns when read through its string methods.
    const text = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** S3 answers in XML: 403 with the error code AccessDenied, which the SDK takes as the error's name. */
function s3AccessDenied(message: string): HttpResponse {
  const escaped = message.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const requestId = randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase();
  const body =
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>${escaped}</Message>` +
    `<RequestId>${requestId}</RequestId><HostId>${randomUUID()}</HostId></Error>`;
  return {
    statusCode: 403,
    headers: {
      'content-type': 'application/xml',
      'x-amz-request-id': requestId,
      'content-length': String(Buffer.byteLength(body)),
    },
    body: Readable.from([Buffer.from(body)]),
  };
}

/** The services whose protocol is REST-JSON answer 403; the JSON-RPC ones (awsJson) answer 400 with `__type`. */
const REST_SERVICES = new Set(['ses', 'social-messaging']);

/** AccessDeniedException exactly as AWS answers it, so that the SDK's own deserializer builds the error. */
function accessDenied(functionId: string, call: Call): HttpResponse {
  const action = `${call.service}:${call.action}`;
  const message =
    `User: arn:aws:sts::${ACCOUNT}:assumed-role/${functionId}-role/${functionId} is not authorized to perform: ${action} ` +
    `on resource: ${call.service === 's3' ? `"${call.arn}"` : call.arn} because no identity-based policy allows the ${action} action`;
  if (call.service === 's3') return s3AccessDenied(message);
  const rest = REST_SERVICES.has(call.service);
  const body = JSON.stringify(rest ? { message } : { __type: 'com.amazon.coral.service#AccessDeniedException', Message: message });
  return {
    statusCode: rest ? 403 : 400,
    headers: {
      'content-type': rest ? 'application/json' : 'application/x-amz-json-1.0',
      'x-amzn-requestid': randomUUID(),
      'x-amzn-errortype': 'AccessDeniedException',
      ...(call.service === 'sqs' ? { 'x-amzn-query-error': 'AccessDenied;Sender' } : {}),
      'content-length': String(Buffer.byteLength(body)),
    },
    body: Readable.from([Buffer.from(body)]),
  };
}
