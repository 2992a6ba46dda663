import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV } from '../../shared/config.js';

/**
 * Every function checks the configuration it needs when its module loads: with an empty environment, importing it
 * fails at once with one line naming what is missing, instead of failing the first request.
 */
const ROOT = join(import.meta.dirname, '../..');
const FUNCTIONS = ['auth', 'http', 'queue'].flatMap((folder) =>
  readdirSync(join(ROOT, 'functions', folder))
    .filter((file) => file.endsWith('.ts'))
    .map((file) => `functions/${folder}/${file}`)
    // The reference needs no configuration: its files sit beside its bundle; the workspace's two redirects, its sign-in form and robots.txt none either.
    .filter(
      (module) =>
        ![
          'functions/http/get-reference.ts',
          'functions/http/get-app.ts',
          'functions/http/get-results-page.ts',
          'functions/http/get-sign-in.ts',
          'functions/http/get-robots.ts',
        ].includes(module),
    ),
);

/** Imports each module in a fresh process as Lambda would load it, with only PATH (and `env`) set; answers each one's error message (or "loaded"). */
function importEach(modules: string[], env: Record<string, string> = {}): Record<string, string> {
  const script = `
    const out = {};
    for (const m of ${JSON.stringify(modules)}) {
      try { await import('./' + m); out[m] = 'loaded'; } catch (e) { out[m] = String(e.message).split('\\n')[0]; }
    }
    process.stdout.write(JSON.stringify(out));`;
  const stdout = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, POWERTOOLS_LOG_LEVEL: 'SILENT', AWS_LAMBDA_FUNCTION_NAME: 'fail-fast-test', ...env },
    encoding: 'utf8',
  });
  return JSON.parse(stdout) as Record<string, string>;
}

describe('configuration at cold start', () => {
  it('fails every function at module load, naming the missing variable', { timeout: 180_000 }, () => {
    const results = importEach(FUNCTIONS);
    expect(Object.keys(results)).toHaveLength(FUNCTIONS.length);
    for (const [module, message] of Object.entries(results)) expect(message, module).toMatch(/^Missing environment variables? [A-Z_]+/);
    expect(results['functions/http/get-store.ts']).toBe('Missing environment variable TABLE_NAME');
    // Unbundled, every HTTP function loads the whole of wiring/access.ts (the module of its key checks) and what that
    // imports, so it checks their variables too, TABLE_NAME first; its bundle holds the key checks alone
    // (test/infra/bundles.test.ts) and loads with its own variables only (test/e2e/runtime-bundles.test.ts). Given
    // every other variable, the v2 intake names its own.
    expect(results['functions/http/post-v2-transaction.ts']).toBe('Missing environment variable TABLE_NAME');
    const allBut = (missing: string) =>
      Object.fromEntries(
        Object.values(ENV)
          .filter((name) => name !== missing && !/_SECONDS$|^LOCAL_DEPLOYMENT$/.test(name))
          .map((name) => [name, name.endsWith('_URL') ? 'http://q' : 'x'.repeat(32)]),
      );
    const { 'functions/http/post-v2-transaction.ts': intake } = importEach(
      ['functions/http/post-v2-transaction.ts'],
      allBut(ENV.transactionQueueUrl),
    );
    expect(intake).toBe('Missing environment variable TRANSACTION_QUEUE_URL');
    expect(results['functions/queue/transaction-consumer.ts']).toBe('Missing environment variable TABLE_NAME');
    // Unbundled, the tenants' wiring also builds the admin pages' shown-once sealer (CURSOR_SECRET) and the timers'
    // schedulers (the case queues), which the consumer's bundle leaves out (test/infra/bundles.test.ts): given those,
    // it names what it needs next.
    const unbundledOnly = { CURSOR_SECRET: 'x'.repeat(32), CASE_QUEUE_URL: 'http://q', CASE_DEADLINE_QUEUE_URL: 'http://q' };
    const { 'functions/queue/transaction-consumer.ts': next } = importEach(['functions/queue/transaction-consumer.ts'], {
      TABLE_NAME: 'survey-service',
      ...unbundledOnly,
    });
    expect(next).toMatch(/^Missing environment variables? [A-Z_, ]*SURVEY_DISPATCH_QUEUE_URL/);
  });

  it(
    'lets the route table load every function for its contract outside a function runtime (cdk synth, OpenAPI)',
    { timeout: 180_000 },
    () => {
      // The route table, then every function module as the OpenAPI document imports it (for `contract`), with no configuration.
      const modules = ['infra/routes.ts', ...FUNCTIONS];
      const results = importEach(modules, { AWS_LAMBDA_FUNCTION_NAME: '' });
      expect(results).toEqual(Object.fromEntries(modules.map((module) => [module, 'loaded'])));
    },
  );
});
