import { readFileSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { ENV } from '../../shared/config.js';
import { QUEUES } from '../../shared/queues.js';
import { parseTenantFile } from '../../shared/tenants/tenant-file.js';
import { applyTenantConfig } from '../../shared/tenants/service.js';
import { startGateway, type Gateway } from './gateway.js';
import { startPoller } from './poller.js';
import { LOCAL_CREDENTIALS, LOCAL_REGION, startDynamoDbLocal, startSqsServer } from './services.js';
import { createQueues, createTable, type QueueUrls } from './setup.js';

export const DEMO_TENANTS_FILE = new URL('./demo-tenants.json', import.meta.url);

export interface LocalStackOptions {
  port: number;
  /** The interface the two gateways listen on: loopback unless opened on purpose (HOST=0.0.0.0). */
  host?: string | undefined;
  chatbotPort: number;
  dynamoDbPort: number;
  sqsPort: number;
  dataDir?: string | undefined;
  tableName: string;
  authorizerCacheTtlSeconds: number;
  /** Apply the demo tenants file. */
  seed: boolean;
  /** How long a message the local consumer failed stays invisible (AWS: the queue's 180 s). */
  visibilityTimeoutSeconds: number;
}

export interface LocalStack {
  publicUrl: string;
  chatbotUrl: string;
  dynamoDbEndpoint: string;
  sqsEndpoint: string;
  tableName: string;
  queueUrls: QueueUrls;
  /** The environment a process needs to use this stack (functions read it at load). */
  env: Record<string, string>;
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

    const clientConfig = { region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS };
    const dynamoClient = new DynamoDBClient({ ...clientConfig, endpoint: dynamo.endpoint });
    const sqsClient = new SQSClient({ ...clientConfig, endpoint: sqs.endpoint });
    await createTable(dynamoClient, options.tableName);
    const queueUrls = await createQueues(sqsClient);
    dynamoClient.destroy();

    const env: Record<string, string> = {
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_ENDPOINT_URL_SQS: sqs.endpoint,
      [ENV.tableName]: options.tableName,
      // Local only: on AWS the stack generates this secret.
      [ENV.requestIdSecret]: 'local-request-id-secret',
      ...Object.fromEntries(Object.entries(QUEUES).map(([id, queue]) => [queue.urlEnv, queueUrls[id as keyof QueueUrls]])),
    };
    Object.assign(process.env, env);

    if (options.seed) {
      for (const tenant of parseTenantFile(readFileSync(DEMO_TENANTS_FILE, 'utf8')).tenants) await applyTenantConfig(tenant);
    }

    const poller = startPoller(sqsClient, queueUrls, { visibilityTimeoutSeconds: options.visibilityTimeoutSeconds });
    stops.push(async () => {
      await poller.stop();
      sqsClient.destroy();
    });

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
    return {
      publicUrl: gateways[0]!.url,
      chatbotUrl: gateways[1]!.url,
      dynamoDbEndpoint: dynamo.endpoint,
      sqsEndpoint: sqs.endpoint,
      tableName: options.tableName,
      queueUrls,
      env,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
