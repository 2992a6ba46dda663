import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway, serveGateway } from '../../infra/local/gateway.js';
import { prepare } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { CHATBOT_ENDPOINT, webhookSecret } from '../../shared/events/signature.js';

/** The local stand-in for API Gateway routes as API Gateway does. */
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await newTenant();
});

describe('the local gateway', () => {
  it('does not resolve dot segments or merge slashes into a route, as API Gateway does not', async () => {
    const gateway = createGateway({ api: 'public' });
    for (const path of ['/public/x/../store/1', '//public/store/1', '/public/./store/1', '/public/%2e%2e/public/store/1']) {
      const { url, headers, body } = prepare({ path, key: tenant.key });
      const res = await gateway({ method: 'GET', url, headers, body });
      expect(res.status, path).toBe(404);
    }
  });

  it("answers a function's invalid header with a logged 500 that names no value, and serves the next request", async () => {
    // Prepare: the public gateway over HTTP, but one path answers what `next=/app/。x` once made the session answer.
    const real = createGateway({ api: 'public' });
    const gateway = await serveGateway(
      async (request) =>
        request.url.startsWith('/bad/')
          ? { status: 303, headers: { location: `/app/${decodeURIComponent(request.url.slice(5))}` }, body: Buffer.alloc(0) }
          : real(request),
      { api: 'public', port: 0 },
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // Act: a non-Latin-1 character, a control character and a NUL in a Location, then an ordinary request.
      const bad = [];
      for (const value of ['%E3%80%82x', '%0Dx', '%00x']) {
        const res = await fetch(`${gateway.url}/bad/${value}`, { redirect: 'manual' });
        bad.push([res.status, await res.text()]);
      }
      const health = await fetch(`${gateway.url}/health`);

      // Assess
      expect(bad).toEqual(Array(3).fill([500, '{"message":"Internal Server Error"}']));
      expect(health.status).toBe(200);
      expect(logged.mock.calls.map((call) => call.join(' '))).toEqual(
        Array(3).fill('local gateway: the function answered an invalid location header'),
      );
    } finally {
      logged.mockRestore();
      await gateway.close();
    }
  });

  it('leaves no emulator behind on its port when the process that started it dies of an uncaught error', async () => {
    // Prepare: a process that starts DynamoDB Local and cognito-local as `npm start` does, then throws.
    const tsx = createRequire(import.meta.url).resolve('tsx/cli');
    const child = spawn(process.execPath, [tsx, fileURLToPath(new URL('../support/crashing-emulators.ts', import.meta.url))], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));

    // Act
    const [code] = (await once(child, 'exit')) as [number | null];

    // Assess: it failed, and neither endpoint answers any more.
    const endpoints = JSON.parse(output) as string[];
    expect([code, endpoints.length]).toEqual([1, 2]);
    const answering = async (endpoint: string) =>
      fetch(endpoint, { signal: AbortSignal.timeout(2_000) }).then(
        () => endpoint,
        () => undefined,
      );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await Promise.all(endpoints.map(answering))).filter(Boolean)).toEqual([]);
  }, 90_000);
});

describe('npm start', () => {
  it("prints the chatbot hand-off's signing secret with the other local credentials", async () => {
    // Prepare: its own ports and data directory, where the secrets stand-in keeps the survey secret it derives from.
    const dataDir = mkdtempSync(join(tmpdir(), 'npm-start-'));
    const ports = ['PORT', 'CHATBOT_PORT', 'DYNAMODB_PORT', 'SQS_PORT', 'SES_PORT', 'OUTBOX_PORT', 'COGNITO_PORT', 'S3_PORT'];
    // As package.json's start script runs it: Node with tsx's loader, one process that gets the signal itself.
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../../infra/local/start.ts', import.meta.url))], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, ...Object.fromEntries(ports.map((name) => [name, '0'])) },
    });
    let output = '';
    try {
      // Act
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString('utf8');
          if (output.includes('Ctrl-C stops everything.')) resolve();
        });
        child.on('exit', (code) => reject(new Error(`npm start ended (${code}): ${output}`)));
      });
    } finally {
      child.kill('SIGINT');
      await once(child, 'exit');
    }

    // Assess: Ctrl-C stopped its emulators (DynamoDB Local is a Java process of its own)...
    const dynamoDb = /DynamoDB\s+(http:\/\/\S+)/.exec(output)![1]!;
    const answered = await fetch(dynamoDb, { signal: AbortSignal.timeout(2_000) }).then(
      () => true,
      () => false,
    );
    expect(answered, `DynamoDB Local still answers at ${dynamoDb}`).toBe(false);
    // ...and printed the secret the demo tenant's hand-off is signed with, beside its chatbot key.
    const { surveyLinks } = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')) as { surveyLinks: string };
    expect(output).toContain(
      `chatbot hand-off signing secret ${webhookSecret({ rootSecret: surveyLinks, tenantId: 1, endpoint: CHATBOT_ENDPOINT, generation: 1 })}`,
    );
    rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);
});
