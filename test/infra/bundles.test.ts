import { beforeAll, describe, expect, it } from 'vitest';
import { bundledSources, bundleOf, bundleText, functionBundles } from '../../infra/bundling/bundles.js';
import { ReadableStream as StreamShim } from '../../infra/bundling/stream-web.js';

/** What each function bundles, with no emulator (test/e2e/runtime-bundles.test.ts loads each bundle on the runtime). */

describe('what the functions behind the API bundle', () => {
  // Every function is bundled once, in one build (or read from the build of an earlier run of the same sources).
  beforeAll(() => void functionBundles(), 240_000);

  it('the key and token checks only, never the tenant administration: the authorizer, getHealth and the table-free postV2Transaction', async () => {
    const held = await Promise.all(
      ['publicAuthorizer', 'getHealth', 'postV2Transaction'].map(async (name) => {
        const sources = bundledSources(name);
        return [name, sources.filter((source) => /tenants\/service|tenant-repository|tenant-creation/.test(source))] as const;
      }),
    );
    expect(Object.fromEntries(held)).toEqual({ publicAuthorizer: [], getHealth: [], postV2Transaction: [] });
  });

  it('no tenant administration where settings are only read: the survey pages, the cases and the consumers', async () => {
    const names = ['getSurveyPage', 'postSurveyPage', 'sesEvents', 'getCase', 'transactionConsumer', 'surveyDispatcher'];
    const held = await Promise.all(
      names.map(async (name) => {
        const sources = bundledSources(name);
        return [name, sources.filter((source) => /tenants\/service|tenant-creation/.test(source))] as const;
      }),
    );
    expect(Object.fromEntries(held)).toEqual(Object.fromEntries(names.map((name) => [name, []])));
  });

  it("sesEvents, which suppresses addresses and opts customers out, bundles none of the survey pages' answers, recovery or cases", async () => {
    const sources = bundledSources('sesEvents');
    expect(
      sources.filter((source) =>
        /surveys\/service|recovery\/service|shared\/cases\/(reads|changes|system-changes|opener)\.ts/.test(source),
      ),
    ).toEqual([]);
  });

  it("the survey pages that only show (a link's, a QR code's, a kiosk's), and the unsubscribe post, bundle no answer path, recovery survey or cases; the answer no opt-out", async () => {
    const names = ['getSurveyPage', 'getQrPage', 'getKioskPage', 'getUnsubscribePage', 'postUnsubscribe'];
    const held = await Promise.all(
      names.map(async (name) => {
        const sources = bundledSources(name);
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
    const answering = bundledSources('postSurveyPage');
    // It answers, and never opts out (the unsubscribe post's part): it bundles no customer editing.
    expect(answering.filter((source) => /wiring\/customers\.ts|customers\/service/.test(source))).toEqual([]);
    expect(answering.filter((source) => /surveys\/service|recovery\/service|cases\/system-changes/.test(source))).toHaveLength(3);
  });

  it("each function holds the three languages of only the words it shows: the case pages no customer's, the survey pages no manager's", async () => {
    // A message of each area, as its key appears in a bundle.
    const AREAS = { customer: 'page.unsubscribeLink', workspace: 'cases.filter.status', alerts: 'caseEscalation.intro' };
    const expected = {
      getAppCase: ['workspace'],
      getSurveyPage: ['customer'],
      caseOpener: ['alerts'],
    };
    const held = await Promise.all(
      Object.keys(expected).map(async (name) => {
        const text = bundleText(name);
        return [name, Object.entries(AREAS).flatMap(([area, key]) => (text.includes(key) ? [area] : []))] as const;
      }),
    );
    expect(Object.fromEntries(held)).toEqual(expected);
  });

  it(
    'each case function bundles only the part of the cases service it runs: the readers neither the opener nor a change',
    { timeout: 240_000 },
    async () => {
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
          const sources = bundledSources(name);
          return [name, sources.flatMap((source) => PARTS.exec(source)?.[1] ?? []).sort()] as const;
        }),
      );
      expect(Object.fromEntries(held)).toEqual(expected);
    },
  );

  it("the workspace's case pages build neither the API's answer schemas nor the transaction record's", async () => {
    const names = ['getAppCase', 'getAppCases', 'postAppCaseContact'];
    const SCHEMAS = /shared\/(cases\/bodies|transaction-record)\.ts$/;
    const held = await Promise.all(
      names.map(async (name) => [name, bundledSources(name).filter((source) => SCHEMAS.test(source))] as const),
    );
    expect(Object.fromEntries(held)).toEqual(Object.fromEntries(names.map((name) => [name, []])));
    // The API's own read holds its answer's schema (its contract): the pattern names the right file.
    expect(bundledSources('getCase').filter((source) => SCHEMAS.test(source))).toEqual(['shared/cases/bodies.ts']);
  });

  it('the phone rules only where a phone is taken: the survey pages and the evaluation reads bundle no phone parsing', async () => {
    const names = ['getSurveyPage', 'postSurveyPage', 'postUnsubscribe', 'listEvaluations', 'getEvaluation', 'getSurvey'];
    const held = await Promise.all(
      names.map(async (name) => [name, bundledSources(name).filter((source) => source.includes('customers/phone'))] as const),
    );
    expect(Object.fromEntries(held)).toEqual(Object.fromEntries(names.map((name) => [name, []])));
  });

  it("each transaction interface builds its own body only, the synchronous one none of the consumer's events, the consumer no event delivery", async () => {
    const held = async (name: string, pattern: RegExp) => bundledSources(name).filter((source) => pattern.test(source));
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
    { timeout: 240_000 },
    async () => {
      const held = async (name: string, pattern: RegExp) => bundledSources(name).filter((source) => pattern.test(source));
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
    const held = async (name: string) => bundleOf(name).inputs.some((input) => input.startsWith('node_modules/aws-jwt-verify/'));
    expect(await held('sessionAuthorizer')).toBe(true);
    for (const name of ['getAppAdminUsers', 'postAppAdminUsers', 'listAdminUsers', 'createAdminUser', 'updateAdminUser'])
      expect({ name, held: await held(name) }).toEqual({ name, held: false });
  });

  it("no function loads Node's web streams: middy's import of them gets a class that still tells a stream from anything else", async () => {
    const text = bundleText('getHealth');
    expect(text).toContain('@middy/core');
    expect(text).not.toContain('node:stream/web');
    expect(new globalThis.ReadableStream() instanceof StreamShim).toBe(true);
    expect({ getReader: () => undefined } instanceof StreamShim).toBe(false);
  });
});
