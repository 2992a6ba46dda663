import { Fn, Stack, type Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { BUCKETS, type BucketId } from '../../shared/buckets.js';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IDestination } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { CfnConfigurationSet } from 'aws-cdk-lib/aws-ses';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { ASYNC_RETRY_ATTEMPTS, type QueueId } from '../../shared/queues.js';
import { capitalise } from '../../shared/text.js';
import { environmentOf, grantsOf, type SecretId, type Statement } from '../grants.js';
import type { Provider } from '../routes.js';
import { ServiceFunction } from './service-function.js';

/** What the service's functions are bound to: the resources of infra/grants.ts, and the settings that place them. */
export interface BoundResources {
  table: ITable;
  secrets: Record<SecretId, Secret>;
  queues: Record<QueueId, Queue>;
  asyncFailures: Queue;
  configurationSet: CfnConfigurationSet;
  logRetention: RetentionDays;
  /** The identities the survey dispatcher may send from (SurveyServiceProps.senders). */
  senders?: { ses?: string[]; sms?: string[]; whatsapp?: string[] } | undefined;
  /** The public API's URL, once that stack exists (survey links open under it). */
  surveyBaseUrl?: string;
  /** The logo bucket, imported in the service stack when the first function granted it is bound. */
  logoBucket: () => IBucket;
  /** The analytics bucket, imported likewise. */
  analyticsBucket: () => IBucket;
  /** The export bucket, imported likewise. */
  exportBucket: () => IBucket;
  /** The managers' user pool: its token issuer and the workspace's client. */
  userPool: { issuer: string; clientId: string };
}

/**
 * Binds each function of the service to what it uses: its environment names its table, queues, secrets and
 * settings, and its role holds exactly its statements of infra/grants.ts (the ones the local stack enforces), on
 * those very resources. It owns no resource: each function is created in the scope its caller gives, where it was
 * before this binding was drawn out of the stack (so its logical ID is the same).
 */
export class FunctionBinding {
  constructor(readonly resources: BoundResources) {}

  /** The same binding, with the survey links' base URL (the public API's, once it exists). */
  withSurveyBaseUrl(surveyBaseUrl: string): FunctionBinding {
    return new FunctionBinding({ ...this.resources, surveyBaseUrl });
  }

  /** A function whose role holds exactly its statements of infra/grants.ts, and the environment naming its resources. */
  function(
    scope: Construct,
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
    const { table, queues, secrets, configurationSet, asyncFailures } = this.resources;
    const surveyBaseUrl = () => {
      if (!this.resources.surveyBaseUrl) throw new Error(`${functionId} sends surveys: build it after the public API.`);
      return this.resources.surveyBaseUrl;
    };
    const statements = grantsOf(functionId);
    const fn = new ServiceFunction(scope, capitalise(functionId), {
      handler: spec.handler,
      description: spec.description,
      logRetention: this.resources.logRetention,
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
        userPool: () => this.resources.userPool,
        bucketName: (bucket) => this.bucketOf(bucket).bucketName,
      }),
    });

    for (const statement of statements)
      fn.addToRolePolicy(
        new PolicyStatement({ effect: Effect.ALLOW, actions: [...statement.actions], resources: this.arnsOf(statement, fn) }),
      );

    if (statements.some((s) => s.resource.kind === 'asyncFailures')) {
      // Lambda retries a failed asynchronous invocation twice, then sends the event and its error here (with this
      // role: the grant above; CDK's SqsDestination would add a second grant of its own).
      const onFailure: IDestination = { bind: () => ({ destination: asyncFailures.queueArn }) };
      fn.configureAsyncInvoke({ retryAttempts: ASYNC_RETRY_ATTEMPTS, onFailure });
    }
    return fn;
  }

  /** The bucket of shared/buckets.ts, each its own. */
  private bucketOf(bucket: BucketId): IBucket {
    const { logoBucket, exportBucket, analyticsBucket } = this.resources;
    return { logos: logoBucket, exports: exportBucket, analytics: analyticsBucket }[bucket]();
  }

  /** Where each resource of infra/grants.ts is. */
  private arnsOf(statement: Statement, fn: ServiceFunction): string[] {
    const { table, queues, secrets, asyncFailures } = this.resources;
    const { resource } = statement;
    switch (resource.kind) {
      case 'table':
        // Queries of the indexes name the index; single-item calls name the table.
        return statement.actions.includes('dynamodb:Query') ? [table.tableArn, `${table.tableArn}/index/*`] : [table.tableArn];
      case 'queue':
        return [queues[resource.queue].queueArn];
      case 'sender':
        return this.sendResources(Stack.of(fn), resource.provider);
      case 'secret':
        return [secrets[resource.secret].secretArn];
      case 'logGroup':
        // The log group's ARN ends in `:*`: its log streams, the resources of CreateLogStream and PutLogEvents.
        return [fn.ownLogGroup.logGroupArn];
      case 'asyncFailures':
        return [asyncFailures.queueArn];
      case 'bucket':
        return [this.bucketOf(resource.bucket).arnForObjects(`${BUCKETS[resource.bucket].prefix}*`)];
      case 'userPool': {
        // The pool's id is the last segment of its issuer URL (https://cognito-idp.<region>.amazonaws.com/<pool id>),
        // the one value of the pool this stack is given: the grant names this pool, not every pool of the account.
        const { region, account } = Stack.of(fn);
        const poolId = Fn.select(3, Fn.split('/', this.resources.userPool.issuer));
        return [`arn:aws:cognito-idp:${region}:${account}:userpool/${poolId}`];
      }
      case 'comprehend':
        // Comprehend's BatchDetectSentiment supports no resource-level permission: IAM takes `*` only.
        return ['*'];
    }
  }

  /** The identities a provider may send from: those the deployment names, else any of this account's in the region. */
  private sendResources({ region, account }: Stack, provider: Provider): string[] {
    const defaults: Record<Provider, string[]> = {
      ses: [`arn:aws:ses:${region}:${account}:identity/*`],
      sms: [`arn:aws:sms-voice:${region}:${account}:*`],
      whatsapp: [`arn:aws:social-messaging:${region}:${account}:phone-number-id/*`],
    };
    // SES authorises the configuration set a message names as well as its identity.
    return [
      ...(this.resources.senders?.[provider] ?? defaults[provider]),
      ...(provider === 'ses' ? [`arn:aws:ses:${region}:${account}:configuration-set/${this.resources.configurationSet.ref}`] : []),
    ];
  }
}
