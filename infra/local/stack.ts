import { readFileSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { ENV, secretArnVariable } from '../../shared/config.js';
import { QUEUES, type QueueId } from '../../shared/queues.js';
import { parseTenantFile } from '../../shared/tenants/tenant-file.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { fileURLToPath } from 'node:url';
import { applyTenantFile } from '../apply-tenant.js';
import { startGateway, type Gateway } from './gateway.js';
import { startOutbox } from './outbox.js';
import { startLocalComprehend } from './comprehend.js';
import { startPoller } from './poller.js';
import {
  LOCAL_CREDENTIALS,
  LOCAL_ANALYTICS_BUCKET,
  LOCAL_EXPORT_BUCKET,
  LOCAL_LOGO_BUCKET,
  LOCAL_REGION,
  startDynamoDbLocal,
  startS3Server,
  startSesServer,
  startSqsServer,
} from './services.js';
import { readSettings } from '../../shared/adapters/settings-repository.js';
import { CHATBOT_ENDPOINT, eventEndpoint, signingSecrets } from '../../shared/events/signature.js';
import { readSurveyLink } from '../../shared/surveys/link.js';
import { createAsyncFailureQueue, createQueues, createTable, type QueueUrls } from './setup.js';
import { startSecretsServer } from './secrets.js';
import { SECRET_ENV, type SecretId } from '../grants.js';
import { tokenOfSurveyLink } from '../../shared/surveys/paths.js';
import { setupUserPool, startCognitoLocal } from './cognito.js';
import { DEMO_MANAGERS, DEMO_TENANTS_FILE } from './demo.js';
import { inviteManager } from '../../shared/session/managers.js';
import { cognitoUserDirectory } from '../../shared/adapters/cognito.js';

export interface LocalStackOptions {
  port: number;
  /** The interface the two gateways listen on: loopback unless opened on purpose (HOST=0.0.0.0). */
  host?: string | undefined;
  chatbotPort: number;
  dynamoDbPort: number;
  sqsPort: number;
  /** The SES v2 emulator (its mailbox at /, the sent e-mails at GET /store). */
  sesPort: number;
  /** The outbox for SMS, WhatsApp and chatbot webhooks. */
  outboxPort: number;
  /** The local Comprehend endpoint (what it received: GET /requests); 0 or absent: a free port. */
  comprehendPort?: number | undefined;
  /** The Cognito emulator (managers' sign-in); 0 or absent: a free port. */
  cognitoPort?: number | undefined;
  /** The S3-compatible server of the tenants' logos. */
  s3Port: number;
  /** The base URL survey links open; by default the public gateway's own URL. */
  surveyBaseUrl?: string | undefined;
  dataDir?: string | undefined;
  tableName: string;
  authorizerCacheTtlSeconds: number;
  /** Apply the demo tenants file. */
  seed: boolean;
  /** How long a message the local consumer failed stays invisible (AWS: the queue's 180 s). */
  visibilityTimeoutSeconds: number;
  /** The wait between an erasure's two passes (ERASURE_RECHECK_SECONDS; by default the service's 120 s). */
  erasureRecheckSeconds?: number | undefined;
}

export interface LocalStack {
  publicUrl: string;
  chatbotUrl: string;
  dynamoDbEndpoint: string;
  sqsEndpoint: string;
  sesUrl: string;
  outboxUrl: string;
  comprehendUrl: string;
  /** The Cognito emulator's endpoint, and the managers' pool and workspace client in it. */
  cognito: { endpoint: string; userPoolId: string; clientId: string };
  s3Endpoint: string;
  tableName: string;
  queueUrls: QueueUrls;
  /** Where the local timer records a scheduled run that failed three times (AsyncFailureQueue). */
  asyncFailureQueueUrl: string;
  /** The environment a process needs to use this stack (functions read it at load). */
  env: Record<string, string>;
  /** The secret a tenant's chatbot hand-off is signed with now (its current generation), to verify deliveries by hand. */
  chatbotSigningSecret(tenantId: number): Promise<string>;
  /** Disables or enables one queue's event source mapping (its consumer stops receiving; the rest go on). */
  setConsumerEnabled(queue: QueueId, enabled: boolean): void;
  stop(): Promise<void>;
}

/**
 * Starts DynamoDB Local, the SQS server, the table and queues, the demo tenants and both gateways. The functions run
 * in this process, configured as in AWS through the environment (only the endpoints differ).
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    const dynamo = await startDynamoDbLocal({ port: options.dynamoDbPort, dataDir: options.dataDir });
    stops.push(dynamo.stop);
    const sqs = await startSqsServer({ port: options.sqsPort });
    stops.push(sqs.stop);
    const ses = await startSesServer({ port: options.sesPort });
    stops.push(ses.stop);
    const s3 = await startS3Server({ port: options.s3Port, dataDir: options.dataDir });
    stops.push(s3.stop);
    const secrets = await startSecretsServer({ port: 0, dataDir: options.dataDir });
    stops.push(secrets.stop);
    const outbox = await startOutbox({
      port: options.outboxPort,
      // Webhooks name the tenant id in the path (/webhooks/1); secrets derive from the local survey secret. Settings
      // are read afresh (not cached), so that a rotation shows at once.
      signingSecrets: async (tenant, endpoint) => {
        const id = /^\d{1,9}$/.test(tenant) ? Number(tenant) : undefined;
        if (!id) return [];
        const key = 'chatbot' in endpoint ? CHATBOT_ENDPOINT : eventEndpoint(endpoint.url);
        return signingSecrets({
          rootSecret: secrets.values.surveyLinks,
          tenantId: id,
          endpoint: key,
          generations: (await readSettings(id)).delivery.signing?.[key],
          now: new Date(),
        });
      },
      readLink: (link) => {
        const read = readSurveyLink(tokenOfSurveyLink(link) ?? '', secrets.values.surveyLinks, new Date(0));
        return read.status === 'unknown' ? undefined : { transactionId: read.link.transactionId, attemptId: read.link.attemptId };
      },
    });
    stops.push(outbox.stop);
    const comprehend = await startLocalComprehend({ port: options.comprehendPort ?? 0 });
    stops.push(comprehend.stop);
    const cognito = await startCognitoLocal({ port: options.cognitoPort ?? 0, dataDir: options.dataDir });
    stops.push(cognito.stop);
    const userPool = await setupUserPool(cognito.endpoint);

    const clientConfig = { region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS };
    const dynamoClient = new DynamoDBClient({ ...clientConfig, endpoint: dynamo.endpoint });
    const sqsClient = new SQSClient({ ...clientConfig, endpoint: sqs.endpoint });
    await createTable(dynamoClient, options.tableName);
    const queueUrls = await createQueues(sqsClient);
    const asyncFailureQueueUrl = await createAsyncFailureQueue(sqsClient);
    dynamoClient.destroy();

    const env: Record<string, string> = {
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_ENDPOINT_URL_SQS: sqs.endpoint,
      AWS_ENDPOINT_URL_SESV2: ses.endpoint,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      [ENV.logoBucket]: LOCAL_LOGO_BUCKET,
      [ENV.analyticsBucket]: LOCAL_ANALYTICS_BUCKET,
      [ENV.exportBucket]: LOCAL_EXPORT_BUCKET,
      // No emulator exists for these two: the outbox answers their calls.
      AWS_ENDPOINT_URL_PINPOINT_SMS_VOICE_V2: outbox.url,
      AWS_ENDPOINT_URL_SOCIALMESSAGING: outbox.url,
      OUTBOX_URL: outbox.url,
      // Nor for Comprehend: a local endpoint answers its JSON API with a small model.
      AWS_ENDPOINT_URL_COMPREHEND: comprehend.url,
      // Webhooks may point at the outbox (http on this machine); the CDK stack never sets this.
      [ENV.localDeployment]: '1',
      // No emulator exists for Secrets Manager either: the functions read their secrets from a local stand-in.
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
      AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: cognito.endpoint,
      [ENV.userPoolIssuer]: userPool.issuer,
      [ENV.userPoolClientId]: userPool.clientId,
      [ENV.userPoolId]: userPool.userPoolId,
      [ENV.tableName]: options.tableName,
      ...Object.fromEntries((Object.keys(SECRET_ENV) as SecretId[]).map((id) => [secretArnVariable(SECRET_ENV[id]), secrets.arns[id]])),
      ...Object.fromEntries(Object.entries(QUEUES).map(([id, queue]) => [queue.urlEnv, queueUrls[id as keyof QueueUrls]])),
      ...(options.erasureRecheckSeconds === undefined ? {} : { [ENV.erasureRecheckSeconds]: String(options.erasureRecheckSeconds) }),
    };
    Object.assign(process.env, env);

    if (options.seed) {
      for (const tenant of parseTenantFile(readFileSync(DEMO_TENANTS_FILE, 'utf8')).tenants)
        await applyTenantFile(tenant, fileURLToPath(new URL('.', DEMO_TENANTS_FILE)));
      const directory = cognitoUserDirectory(userPool.userPoolId);
      for (const manager of DEMO_MANAGERS) {
        await inviteManager(
          { putTenantUser: (id, name, scope) => tenantService.createUser(id, { name, scope }), directory },
          { ...manager, temporaryPassword: manager.password },
        );
        // Signed in with at once: the invitation's new-password step is for real invitations.
        await directory.setPassword(manager.email, manager.password);
      }
    }

    const gateways: Gateway[] = [];
    for (const [api, port] of [
      ['public', options.port],
      ['chatbot', options.chatbotPort],
    ] as const) {
      const gateway = await startGateway({
        api,
        port,
        host: options.host ?? '127.0.0.1',
        authorizerCacheTtlSeconds: options.authorizerCacheTtlSeconds,
      });
      gateways.push(gateway);
      stops.push(gateway.close);
    }
    // Survey links open the public gateway; the dispatcher reads this when it loads, so the poller starts now.
    process.env[ENV.surveyBaseUrl] = env[ENV.surveyBaseUrl] = options.surveyBaseUrl ?? gateways[0]!.url;
    const poller = startPoller(sqsClient, queueUrls, { visibilityTimeoutSeconds: options.visibilityTimeoutSeconds, asyncFailureQueueUrl });
    stops.push(async () => {
      await poller.stop();
      sqsClient.destroy();
    });
    return {
      publicUrl: gateways[0]!.url,
      chatbotUrl: gateways[1]!.url,
      dynamoDbEndpoint: dynamo.endpoint,
      sqsEndpoint: sqs.endpoint,
      sesUrl: ses.endpoint,
      outboxUrl: outbox.url,
      comprehendUrl: comprehend.url,
      cognito: { endpoint: cognito.endpoint, userPoolId: userPool.userPoolId, clientId: userPool.clientId },
      s3Endpoint: s3.endpoint,
      tableName: options.tableName,
      queueUrls,
      asyncFailureQueueUrl,
      env,
      chatbotSigningSecret: async (tenantId) =>
        signingSecrets({
          rootSecret: secrets.values.surveyLinks,
          tenantId,
          endpoint: CHATBOT_ENDPOINT,
          generations: (await readSettings(tenantId)).delivery.signing?.[CHATBOT_ENDPOINT],
          now: new Date(),
        })[0]!,
      setConsumerEnabled: poller.setEnabled,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
