import { Validations, type Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * The cdk-nag findings this design accepts, each with its reason (test/infra/nag.test.ts runs the AwsSolutions and
 * Serverless packs and fails on any finding without one). A rule's id names its pack; a bracket names one finding.
 */
export function acknowledgeStackFindings(
  stack: Stack,
  tableArnExport: string,
  logoBucketNameExport: string,
  analyticsBucketNameExport: string,
  exportBucketNameExport: string,
): void {
  Validations.of(stack).acknowledge(
    {
      id: `AwsSolutions::AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${analyticsBucketNameExport}/*]`,
      reason:
        'The analytics consumer writes (and the privacy consumer looks up) any tenant day of the analytics bucket, and the file a chain link keeps for the next: each object is named by dataset, tenant and day, or by tenant, chain and link, so the wildcard is the object name in the analytics bucket.',
    },
    {
      id: `AwsSolutions::AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${logoBucketNameExport}/logos/*]`,
      reason:
        "The logo route reads, and the logo upload (createAdminLogo) writes, any logo object: each is named by its content's hash, so the wildcard is the object name under logos/.",
    },
    {
      id: `AwsSolutions::AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${exportBucketNameExport}/*]`,
      reason:
        'The export consumer writes, and the download route links (a presigned GET), any export file: each is named by its tenant, job and run, known only when it is written, so the wildcard is the object name in the export bucket.',
    },
    {
      id: `AwsSolutions::AwsSolutions-IAM5[Resource::${tableArnExport}/index/*]`,
      reason: "The table's grants cover its indexes (lists query them); the wildcard is the index name under this one table.",
    },
    {
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::arn:aws:ses:<AWS::Region>:<AWS::AccountId>:identity/*]',
      reason: 'Only when the deployment names no SES identities (context sesIdentityArns): this account and Region only.',
    },
    {
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::arn:aws:sms-voice:<AWS::Region>:<AWS::AccountId>:*]',
      reason: 'Only when the deployment names no SMS origination identities (context smsOriginationArns): this account and Region only.',
    },
    {
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::arn:aws:social-messaging:<AWS::Region>:<AWS::AccountId>:phone-number-id/*]',
      reason: 'Only when the deployment names no WhatsApp numbers (context whatsappPhoneNumberArns): this account and Region only.',
    },
    {
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::*]',
      reason:
        "Only the comment analyser's Comprehend statement (BatchDetectSentiment): this action supports no resource-level permission, so IAM takes `*` only; it reads nothing of the account.",
    },
    {
      id: 'Serverless::Serverless-LambdaTracing',
      reason:
        'X-Ray is not enabled: each request is traced by its request id through structured logs and access logs, and metrics count outcomes; active tracing would cost per request for little more.',
    },
    {
      id: 'Serverless::Serverless-LambdaDLQ',
      reason:
        "The rule asks for a dead-letter queue (DeadLetterConfig), which only asynchronous invocations use. HTTP functions and authorizers are invoked synchronously (API Gateway gets the error); queue consumers are invoked synchronously by their event source, and a failed record returns to its queue, whose redrive policy moves it to the queue's DLQ after 5 receives; the asynchronously invoked functions (scheduled, SES events) have an on-failure destination instead, the async-failure queue with its alarm (a destination records the error with the event, a DLQ only the event).",
    },
    {
      id: 'AwsSolutions::AwsSolutions-SMG4',
      reason:
        'The survey secret signs links valid for up to 90 days and derives webhook secrets; the request-id secret signs ids that clients poll; the cursor secret seals list cursors clients hold. Scheduled rotation would break them in flight: they rotate by an operator procedure.',
    },
  );
}

/** The logo bucket: its objects are public images put by the operator or a tenant admin, each named by its content's hash. */
export const acknowledgeLogoBucket = (bucket: IConstruct): void =>
  Validations.of(bucket).acknowledge({
    id: 'AwsSolutions::AwsSolutions-S1',
    reason:
      "Server access logs would record reads of public logos: the writers are the operator's admin command (CloudTrail records its calls) and the logo upload route (the tenant's audit log records each upload), and the objects are images that every survey e-mail shows anyway.",
  });

/** The export bucket: answer files written by the export consumer, each fetched by the user who asked through a presigned address. */
export const acknowledgeExportBucket = (bucket: IConstruct): void =>
  Validations.of(bucket).acknowledge({
    id: 'AwsSolutions::AwsSolutions-S1',
    reason:
      "Its one writer is the export consumer and its one reader the download route, which checks the user's session and logs each download it links (a five-minute presigned address); every file expires after a day, and access logs would outlive the files they describe.",
  });

/** The analytics bucket: Parquet days written by the export and the privacy worker, read by the tenant's analysts. */
export const acknowledgeAnalyticsBucket = (bucket: IConstruct): void =>
  Validations.of(bucket).acknowledge({
    id: 'AwsSolutions::AwsSolutions-S1',
    reason:
      "Its writers are two of the service's functions (CloudWatch logs each day written), and its readers the operator's analysts, whose Athena queries Athena's own history records; an operator who must log each object read turns on CloudTrail data events for the bucket, which cost per request, rather than a second bucket of access logs.",
  });

/** Athena's query results: written by Athena for the workgroup's analysts, expired after a few days. */
export const acknowledgeAthenaResultsBucket = (bucket: IConstruct): void =>
  Validations.of(bucket).acknowledge({
    id: 'AwsSolutions::AwsSolutions-S1',
    reason:
      "Only Athena writes it, each object the result of a query that Athena's own history records (who ran it, when, what it read); access logs would repeat that history.",
  });

/**
 * The analysts' managed policy (analytics.ts): its wildcards are object and table names within one tenant's grant. The
 * findings name the buckets by their logical ids.
 */
export const acknowledgeAnalystPolicy = (policy: IConstruct, datasets: readonly string[], bucketId: string, resultsId: string): void =>
  Validations.of(policy).acknowledge(
    ...datasets.map((dataset) => ({
      id: `AwsSolutions::AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${dataset}/tenant=<aws:PrincipalTag/tenant>/*]`,
      reason: `An analyst reads any day of ${dataset} of their own tenant (the tenant their role or user is tagged with): the wildcard is the day's key under that prefix.`,
    })),
    {
      id: 'AwsSolutions::AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:glue:<AWS::Region>:<AWS::AccountId>:table/<AnalyticsDatabase>/*]',
      reason:
        "Athena reads the analytics database's tables (one per dataset) for the analyst: the wildcard is the table name in that one database.",
    },
    {
      id: `AwsSolutions::AwsSolutions-IAM5[Resource::<${resultsId}.Arn>/*]`,
      reason:
        "Athena writes and reads the workgroup's results with the analyst's credentials, each named by its query id: the wildcard is that name in the results bucket (which the analyst may not list).",
    },
  );

/**
 * A route anyone may call: GET /health, the survey pages (their link's signed token is their authorization), and the
 * workspace's sign-in pages (the manager's password or refresh token, checked by Cognito, is theirs).
 */
export const acknowledgeAnonymousRoute = (route: IConstruct): void =>
  Validations.of(route).acknowledge({
    id: 'AwsSolutions::AwsSolutions-APIG4',
    reason:
      "Anonymous by design: the health check, a survey page whose signed, expiring link token is its authorization, or the workspace's sign-in, refresh and sign-out, which Cognito authorizes; throttled harder than keyed routes.",
  });

/** The managers' user pool: MFA offered, not imposed; the Essentials feature plan. */
export const acknowledgeUserPool = (pool: IConstruct): void =>
  Validations.of(pool).acknowledge(
    {
      id: 'AwsSolutions::AwsSolutions-COG2',
      reason:
        'MFA is optional (TOTP): each manager may enrol; a deployment whose tenants require it sets the pool to required. Store managers sign in on shared shop devices, where a required second factor is a decision for the tenant.',
    },
    {
      id: 'AwsSolutions::AwsSolutions-COG8',
      reason:
        'The Essentials feature plan: the Plus plan (threat protection, adaptive authentication) is billed per active user; a deployment that wants it sets the feature plan, with no code change.',
    },
  );

/**
 * A dead-letter queue (of a queue, an EventBridge target or an SNS subscription) or the async-failure queue (Lambda's
 * on-failure destination): it has no dead-letter queue of its own, and keeps its messages 14 days for the operator.
 */
export const acknowledgeDeadLetterQueue = (queue: IConstruct): void =>
  Validations.of(queue).acknowledge(
    {
      id: 'Serverless::Serverless-SQSRedrivePolicy',
      reason: 'A dead-letter queue or the async-failure queue: messages stop here for the operator (14 days, alarmed on the first).',
    },
    {
      id: 'AwsSolutions::AwsSolutions-SQS3',
      reason:
        'A dead-letter queue (of a queue, an EventBridge target or an SNS subscription) or the async-failure queue: where failures end, not a queue that fails onward.',
    },
  );

/** A queue consumer's event source: failures go to the queue's own dead-letter queue after 5 receives. */
export const acknowledgeQueueEventSource = (fn: IConstruct): void =>
  Validations.of(fn).acknowledge({
    id: 'Serverless::Serverless-LambdaEventSourceMappingDestination',
    reason: "An SQS event source's failed records return to the queue, whose redrive policy moves them to its DLQ after 5 receives.",
  });
