import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENV, requireEnv } from '../../shared/config.js';
import { signSurveyLink } from '../../shared/surveys/link.js';
import { surveyPagePath } from '../../shared/surveys/paths.js';
import { routes } from '../../infra/routes.js';
import { validRequests } from '../../infra/examples.js';
import { inProcess } from '../support/api.js';
import { consume, usePrivateQueue } from '../support/queues.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';
import { putSettings } from '../../shared/adapters/tenant-repository.js';
import { readSettings } from '../../shared/adapters/settings-repository.js';
import { DEFAULT_THEMES, MAX_KEYWORD_LENGTH, MAX_KEYWORDS, MAX_THEMES } from '../../shared/themes/theme.js';
import type { ConfigDocument } from '../../shared/tenants/config-schema.js';
import { JOURNEY_DEFAULTS } from '../../shared/settings/scales.js';
import { casesSettingsOf } from '../../shared/cases/rules.js';
import { DEMO_LOGO, distinctPng, png } from '../support/logos.js';
import { MAX_LOGOS } from '../../shared/brand/logo.js';
import { v2Payload } from '../support/transactions.js';
import { meter } from '../../bench/metering.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { withMaskedUrls } from '../../shared/chat/masked-url.js';

const api = inProcess('public');
const CONFIG = '/public/admin/config';
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await newTenant();
});

const read = () => api({ path: CONFIG, key: tenant.adminKey });
const replace = (body: unknown, etag?: string) =>
  api({ method: 'PUT', path: CONFIG, key: tenant.adminKey, body, headers: etag === undefined ? {} : { 'if-match': etag } });

/** A journey the demo configuration lacks, on its class 1. */
const newJourney = (id: number, slug: string) => ({ id, slug, indicator: 'nps', classes: [1], channels: ['email'] });

describe('GET /public/admin/config', () => {
  it('answers the whole configuration with an ETag, and no keys, user tokens or signing generations', async () => {
    // Prepare / Act
    const res = await read();

    // Assess
    expect(res.status).toBe(200);
    expect(res.headers.etag).toMatch(/^"\d+"$/);
    expect(Object.keys(res.body).sort()).toEqual([
      'alerts',
      'analytics',
      'brand',
      'cases',
      'classes',
      'commentAnalysis',
      'delivery',
      'digests',
      'groups',
      'journeys',
      'locale',
      'minAnswersToRank',
      'name',
      'privacy',
      'regions',
      'themes',
      'timeZone',
    ]);
    // Rankings leave out stores with fewer than 5 answers, and no alert nor daily digest is on, unless the tenant says otherwise.
    expect([res.body.minAnswersToRank, res.body.alerts, res.body.digests]).toEqual([5, { scoreDrop: false }, { daily: false }]);
    // A tenant that set neither speaks pt-BR in São Paulo's time.
    expect([res.body.locale, res.body.timeZone]).toEqual(['pt-BR', 'America/Sao_Paulo']);
    // A tenant that set no brand shows its name as the brand's.
    expect(res.body.brand).toEqual({ name: res.body.name });
    expect(res.body.journeys.map((j: { slug: string }) => j.slug)).toEqual(DEMO_SETTINGS.journeys.map((j) => j.slug));
    expect(res.body.classes).toHaveLength(4);
    expect(res.text).not.toContain('signing');
    expect(res.text).not.toContain(tenant.key);
  });
});

describe('PUT /public/admin/config', () => {
  const transactions = usePrivateQueue('transactions');

  it('adds a journey that a v2 transaction posted at once is created on, with what changed in the answer', async () => {
    // Prepare: a consumer that has read the configuration already (its process keeps it), as a running one has.
    const warm = await consume([
      { version: 1, tenantId: tenant.tenantId, requestId: 'warm', receivedAt: new Date().toISOString(), payload: v2Payload() },
    ]);
    expect(warm.failed).toEqual([]);
    const before = await read();

    // Act
    const res = await replace({ ...before.body, journeys: [...before.body.journeys, newJourney(40, 'balcao')] }, before.headers.etag);
    const posted = await api({
      method: 'POST',
      path: '/v2/transactions',
      key: tenant.key,
      body: v2Payload({ transaction: { journeySlug: 'balcao', externalId: 'ADMIN-1' } }),
    });
    const { failed } = await consume(await transactions.drain());
    const outcome = await api({ path: `/v2/transactions/requests/${posted.headers['x-request-id']}`, key: tenant.key });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body.changes).toEqual([{ path: 'journeys[id=40]', old: null, new: expect.objectContaining(newJourney(40, 'balcao')) }]);
    expect(res.headers.etag).toBe(res.body.etag);
    expect(res.headers.etag).not.toBe(before.headers.etag);
    expect(posted.status).toBe(201);
    expect(failed).toEqual([]);
    expect(outcome.body).toMatchObject({ status: 'created', errors: [] });
    expect((await read()).body.journeys.map((j: { slug: string }) => j.slug)).toContain('balcao');
  });

  it('removes what the new configuration no longer lists: a transaction on a removed journey is rejected at once', async () => {
    const before = await read();
    const res = await replace(
      { ...before.body, journeys: before.body.journeys.filter((j: { slug: string }) => j.slug !== 'ecommerce') },
      before.headers.etag,
    );
    const posted = await api({
      method: 'POST',
      path: '/v2/transactions',
      key: tenant.key,
      body: v2Payload({ transaction: { journeySlug: 'ecommerce', externalId: 'ADMIN-2' } }),
    });
    await consume(await transactions.drain());
    const outcome = await api({ path: `/v2/transactions/requests/${posted.headers['x-request-id']}`, key: tenant.key });

    expect(res.status).toBe(200);
    expect(res.body.changes).toEqual([{ path: 'journeys[id=2]', old: expect.objectContaining({ slug: 'ecommerce' }), new: null }]);
    expect(outcome.body.status).toBe('rejected');
    expect((await read()).body.journeys.map((j: { slug: string }) => j.slug)).not.toContain('ecommerce');
  });

  it('writes a configuration at its largest whole (500 groups, in batches), and removes 480 of them whole', async () => {
    // Prepare
    const before = await read();
    const groups = Array.from({ length: 500 }, (_, i) => ({ id: 1000 + i, name: `Região ${i}` }));

    // Act
    const grown = await replace({ ...before.body, groups }, before.headers.etag);
    const afterGrowth = await read();
    const shrunk = await replace({ ...afterGrowth.body, groups: groups.slice(0, 20) }, afterGrowth.headers.etag);

    // Assess
    expect(grown.status).toBe(200);
    expect(afterGrowth.body.groups).toEqual(groups);
    expect(shrunk.status).toBe(200);
    expect((await read()).body.groups).toEqual(groups.slice(0, 20));
    // 980 items written or deleted by DynamoDB Local, which is CPU-bound: 6 s alone, past 30 s on a machine busy with
    // CI's other tiers and a CPU-bound process (.ci/run beside `yes`).
  }, 90_000);

  it('refuses a stale or weak If-Match with 412 and a missing one with 428, changing nothing', async () => {
    const before = await read();
    const fresh = await replace({ ...before.body, name: 'renamed' }, before.headers.etag);
    const current = await read();

    const stale = await replace({ ...before.body, name: 'stale' }, before.headers.etag);
    const missing = await replace({ ...before.body, name: 'missing' });
    const foreign = await replace({ ...before.body, name: 'any' }, '"not-a-version"');
    // If-Match compares strongly: the same version as a weak tag matches nothing.
    const weak = await replace({ ...before.body, name: 'weak' }, `W/${current.headers.etag}`);

    expect(fresh.status).toBe(200);
    expect(fresh.body.changes).toEqual([{ path: 'name', old: before.body.name, new: 'renamed' }]);
    expect(stale.status).toBe(412);
    expect(stale.body.type).toBe('/problems/precondition-failed');
    expect(missing.status).toBe(428);
    expect(foreign.status).toBe(412);
    expect(weak.status).toBe(412);
    expect(weak.body.detail).toContain('weak ETag');
    const after = await read();
    expect(after.headers.etag).toBe(current.headers.etag);
    expect(after.body).toEqual(current.body);
  });

  it('moves the ETag by one for one PUT, in its answer and on the next read', async () => {
    const before = await read();
    const version = Number(JSON.parse(before.headers.etag!));

    const res = await replace({ ...before.body, name: `${before.body.name} +1` }, before.headers.etag);

    expect(res.status, res.text).toBe(200);
    expect(res.headers.etag).toBe(`"${version + 1}"`);
    expect((await read()).headers.etag).toBe(`"${version + 1}"`);
  });

  it('moves the working hours’ zone with the tenant’s unless it was set on its own', async () => {
    // Prepare: working hours in the tenant's zone (as the demo file writes them), and another tenant's in a zone of their own.
    const hours = { days: ['mon', 'tue'], from: '09:00', to: '18:00' };
    const own = await newTenant();
    const setUp = async (key: string, zone: string) => {
      const current = await api({ path: CONFIG, key });
      const res = await api({
        method: 'PUT',
        path: CONFIG,
        key,
        body: { ...current.body, timeZone: 'America/Sao_Paulo', cases: { workingHours: { ...hours, timeZone: zone } } },
        headers: { 'if-match': current.headers.etag! },
      });
      expect(res.status, res.text).toBe(200);
      return (await api({ path: CONFIG, key })).body as ConfigDocument & { headers?: never };
    };
    const following = await setUp(tenant.adminKey, 'America/Sao_Paulo');
    const apart = await setUp(own.adminKey, 'Europe/Lisbon');

    // Act: each tenant moves to Bogotá, putting back the working hours as read.
    const move = async (key: string, body: ConfigDocument) => {
      const etag = (await api({ path: CONFIG, key })).headers.etag!;
      const res = await api({
        method: 'PUT',
        path: CONFIG,
        key,
        body: { ...body, timeZone: 'America/Bogota' },
        headers: { 'if-match': etag },
      });
      expect(res.status, res.text).toBe(200);
      return (await api({ path: CONFIG, key })).body as ConfigDocument;
    };
    const [moved, kept] = [await move(tenant.adminKey, following), await move(own.adminKey, apart)];

    // Assess: the first follows the tenant's zone (none of its own), the second keeps its own.
    expect(moved.timeZone).toBe('America/Bogota');
    expect(moved.cases.workingHours).toEqual(hours);
    expect(casesSettingsOf(await readSettings(tenant.tenantId)).workingHours.timeZone).toBe('America/Bogota');
    expect(kept.cases.workingHours).toEqual({ ...hours, timeZone: 'Europe/Lisbon' });
  });

  it('of two replacements made from the same read, writes exactly one (real concurrency)', async () => {
    const before = await read();
    const answers = await Promise.all(['first', 'second', 'third'].map((name) => replace({ ...before.body, name }, before.headers.etag)));

    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 412, 412]);
    const winner = answers.find((a) => a.status === 200)!;
    expect((await read()).body.name).toBe(winner.body.changes[0].new);
  });

  it('replaces a configuration in 7 DynamoDB round trips, a new name, a removed journey and a new colour included', async () => {
    // Prepare: a tenant of its own, whose key's answer API Gateway cached on a first read (as `bench -- cost` does).
    const own = await newTenant();
    const cached = inProcess('public', 300);
    const get = () => cached({ path: CONFIG, key: own.adminKey });
    const before = await get();
    const next = {
      ...before.body,
      name: `${before.body.name} renomeada`,
      journeys: before.body.journeys.filter((j: { slug: string }) => j.slug !== 'ecommerce'),
      brand: { ...before.body.brand, colour: '#123456' },
    };
    const metered = meter(db().client);

    // Act
    let res;
    try {
      metered.reset();
      res = await metered.run(() =>
        cached({ method: 'PUT', path: CONFIG, key: own.adminKey, body: next, headers: { 'if-match': before.headers.etag! } }),
      );
    } finally {
      metered.stop();
    }
    const after = await get();

    // Assess: the key's check, the tenant beside its partition, the claim (and the name), the writes, the release, the audit entry.
    expect(res.status).toBe(200);
    expect(after.body).toEqual(next);
    expect(after.headers.etag).toBe(res.headers.etag);
    expect(metered.calls.map((call) => call.command).sort()).toEqual(
      ['GetItem', 'GetItem', 'Query', 'TransactWriteItems', 'BatchWriteItem', 'TransactWriteItems', 'PutItem'].sort(),
    );
  });

  it('validates with the tenant file schema, naming every wrong field, and changes nothing', async () => {
    const before = await read();
    const res = await replace(
      {
        ...before.body,
        classes: [{ id: 1, label: 'A', type: 'stars' }],
        journeys: [{ ...newJourney(5, 'Bad Slug'), classes: [9] }],
        delivery: { email: { from: 'not-an-address' } },
        surprise: true,
      },
      before.headers.etag,
    );

    expect(res.status).toBe(400);
    const paths = res.body.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['classes.0.type', 'journeys.0.slug', 'delivery.email.from', 'surprise']));
    expect(await read()).toMatchObject({ headers: { etag: before.headers.etag }, body: before.body });
  });
});

/** For each field of the document, a different valid value than `value` (a field the schema gains fails to compile here). */
const otherValue: { [K in keyof ConfigDocument]-?: (value: ConfigDocument[K]) => ConfigDocument[K] } = {
  name: (name) => `${name} renomeado`,
  locale: (locale) => (locale === 'es' ? 'en' : 'es'),
  timeZone: (zone) => (zone === 'America/Manaus' ? 'Europe/Lisbon' : 'America/Manaus'),
  classes: (classes) => [...classes, { id: 90, label: 'Embalagem', type: 'csat' }],
  journeys: (journeys) => [
    ...journeys,
    { ...JOURNEY_DEFAULTS, id: 91, slug: 'ida-e-volta', indicator: 'nps', classes: [1], channels: ['email'] },
  ],
  groups: (groups) => [...groups, { id: 92, name: 'Região Norte' }],
  regions: (regions) => [...regions, { id: 93, name: 'Sul', stores: [1] }],
  delivery: (delivery) => ({ ...delivery, email: { from: `pesquisa-${randomUUID().slice(0, 8)}@loja.example` } }),
  privacy: (privacy) => ({ retentionDays: privacy.retentionDays === 400 ? 401 : 400 }),
  cases: (cases) => ({ ...cases, rootCauses: [`Atraso ${randomUUID().slice(0, 8)}`] }),
  minAnswersToRank: (min) => min + 3,
  alerts: (alerts) => ({
    ...alerts,
    scoreDrop: !alerts.scoreDrop,
    chat: [
      ...(alerts.chat ?? []),
      { kind: 'slack', url: `https://hooks.slack.com/services/${randomUUID()}`, events: ['case.opened'], comment: false },
    ],
  }),
  analytics: (analytics) => ({ comments: !analytics.comments }),
  digests: (digests) => ({ daily: !digests.daily }),
  commentAnalysis: (analysis) => ({ comprehendSentiment: !analysis.comprehendSentiment }),
  brand: (brand) => ({ ...brand, colour: brand.colour === '#0b5cad' ? '#1d4ed8' : '#0b5cad' }),
  // Stored themes read back in slug order.
  themes: (themes) => [...(themes ?? []), parking()].sort((a, b) => a.slug.localeCompare(b.slug)),
};

describe('a document read and put back with one change', () => {
  // A PUT and two reads for each of the document's fields: 10 s beside a CI run, 30 under its heaviest minute.
  it('keeps every field it did not change, for every field of the document', async () => {
    // Prepare: a tenant of its own, in Spanish (as the operator's file sets it), with every field at a value of its own.
    const own = await newTenant();
    await putSettings(own.tenantId, { ...DEMO_SETTINGS, locale: 'es' });
    const get = () => api({ path: CONFIG, key: own.adminKey });
    const fields = Object.keys((await get()).body);
    expect(fields.sort()).toEqual(Object.keys(otherValue).sort());

    for (const field of fields as (keyof ConfigDocument)[]) {
      // Act
      const before = await get();
      const changed = (otherValue[field] as (value: unknown) => unknown)(before.body[field]);
      const put = await api({
        method: 'PUT',
        path: CONFIG,
        key: own.adminKey,
        body: { ...before.body, [field]: changed },
        headers: { 'if-match': before.headers.etag! },
      });
      const after = await get();

      // Assess
      expect(put.status, `${field}: ${put.text}`).toBe(200);
      // What changed is that field alone.
      expect(put.body.changes.length, field).toBeGreaterThan(0);
      expect(
        put.body.changes.map((c: { path: string }) => c.path.split(/[.[]/)[0]),
        field,
      ).toEqual(put.body.changes.map(() => field));
      expect(after.body[field], field).not.toEqual(before.body[field]);
      // A chat endpoint's URL reads masked (a credential).
      const chatUrls = field === 'alerts' ? (changed as ConfigDocument['alerts']).chat!.map((endpoint) => endpoint.url) : [];
      if (typeof changed === 'object') expect(after.body[field], field).toMatchObject(withMaskedUrls(changed!, chatUrls));
      else expect(after.body[field], field).toBe(changed);
      const { [field]: _after, ...othersAfter } = after.body;
      const { [field]: _before, ...othersBefore } = before.body;
      expect(othersAfter, `fields other than ${field}`).toEqual(othersBefore);
    }
  }, 90_000);
});

describe("chat endpoints' URLs in the configuration", () => {
  it('are answered and audited masked, and a document put back unchanged keeps the stored URLs', async () => {
    // Prepare: two Slack webhooks whose last 4 characters are the same, and a Teams one.
    const own = await newTenant();
    const secret = randomUUID();
    const chat = [
      {
        kind: 'slack' as const,
        url: `https://hooks.slack.com/services/T1/B1/${secret}-abcd`,
        events: ['case.opened' as const],
        comment: false,
      },
      {
        kind: 'slack' as const,
        url: `https://hooks.slack.com/services/T1/B2/${secret}-xabcd`,
        events: ['digest' as const],
        comment: false,
      },
      {
        kind: 'teams' as const,
        url: `https://prod-1.westus.logic.azure.com/workflows/${secret}/invoke?sig=zz99`,
        events: ['case.opened' as const],
        comment: false,
      },
    ];
    await putSettings(own.tenantId, { ...DEMO_SETTINGS, alerts: { scoreDrop: false, chat } });
    const get = () => api({ path: CONFIG, key: own.adminKey });

    // Act: read, put back unchanged; then put back with another field changed; then without the Teams endpoint.
    const read = await get();
    const same = await api({
      method: 'PUT',
      path: CONFIG,
      key: own.adminKey,
      body: read.body,
      headers: { 'if-match': read.headers.etag! },
    });
    const changed = await api({
      method: 'PUT',
      path: CONFIG,
      key: own.adminKey,
      body: { ...read.body, alerts: { ...read.body.alerts, scoreDrop: true } },
      headers: { 'if-match': read.headers.etag! },
    });
    const kept = await readSettings(own.tenantId);
    const again = await get();
    const removed = await api({
      method: 'PUT',
      path: CONFIG,
      key: own.adminKey,
      body: { ...again.body, alerts: { ...again.body.alerts, chat: again.body.alerts.chat.slice(0, 2) } },
      headers: { 'if-match': again.headers.etag! },
    });
    const audit = await api({ path: '/public/admin/audit', key: own.adminKey });

    // Assess: scheme, host and the last characters (4, or 8 while two read alike), never the secret.
    expect(read.status, read.text).toBe(200);
    expect(read.body.alerts.chat.map((endpoint: { url: string }) => endpoint.url)).toEqual([
      `https://hooks.slack.com/…${chat[0]!.url.slice(-8)}`,
      `https://hooks.slack.com/…${chat[1]!.url.slice(-8)}`,
      'https://prod-1.westus.logic.azure.com/…sig=zz99',
    ]);
    expect(same.status, same.text).toBe(200);
    expect(same.body.changes).toEqual([]);
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.changes).toEqual([{ path: 'alerts.scoreDrop', old: false, new: true }]);
    expect(kept.alerts?.chat).toEqual(chat);
    expect(removed.status, removed.text).toBe(200);
    expect((await readSettings(own.tenantId)).alerts?.chat).toEqual(chat.slice(0, 2));
    expect(audit.status, audit.text).toBe(200);
    expect(JSON.stringify([read.body, changed.body, removed.body, audit.body])).not.toContain(secret);
    expect(JSON.stringify(audit.body)).toContain('https://prod-1.westus.logic.azure.com/…');
  });
});

/** A theme the defaults lack. */
const parking = (slug = 'parking') => ({
  slug,
  name: { 'pt-BR': 'Estacionamento', es: 'Aparcamiento', en: 'Parking' },
  keywords: { 'pt-BR': ['estacionamento', 'vaga'], es: ['aparcamiento'], en: ['parking'] },
});

describe('themes in the configuration', () => {
  it('answers the default themes until the tenant sets its own; they round-trip, and leaving them out restores the defaults', async () => {
    // Prepare
    const own = await newTenant();
    const get = () => api({ path: CONFIG, key: own.adminKey });
    const put = (body: unknown, etag: string) =>
      api({ method: 'PUT', path: CONFIG, key: own.adminKey, body, headers: { 'if-match': etag } });
    const before = await get();
    expect(before.body.themes).toEqual(DEFAULT_THEMES);

    // Act: the defaults put back unchanged change nothing; a theme of its own is stored and read back whole.
    const same = await put(before.body, before.headers.etag!);
    const mine = [
      { ...parking(), keywords: { ...parking().keywords, es: [] } },
      { ...DEFAULT_THEMES[0]!, slug: 'queue' },
    ];
    const set = await put({ ...before.body, themes: mine }, before.headers.etag!);
    const after = await get();
    const stored = await readSettings(own.tenantId);
    const { themes: _themes, ...withoutThemes } = after.body;
    const reset = await put(withoutThemes, after.headers.etag!);

    // Assess
    expect(same.status).toBe(200);
    expect(same.body.changes).toEqual([]);
    expect(set.status, set.text).toBe(200);
    // In slug order, each theme one change.
    expect(after.body.themes).toEqual([...mine].sort((a, b) => a.slug.localeCompare(b.slug)));
    expect(set.body.changes.map((c: { path: string }) => c.path)).toEqual(
      expect.arrayContaining(['themes[slug=parking]', 'themes[slug=queue]', 'themes[slug=wait]']),
    );
    expect(stored.themes?.map((t) => t.slug)).toEqual(['parking', 'queue']);
    expect(reset.status).toBe(200);
    expect((await get()).body.themes).toEqual(DEFAULT_THEMES);
    expect((await readSettings(own.tenantId)).themes).toBeUndefined();
  });

  it(`takes ${MAX_THEMES} themes of ${MAX_KEYWORDS} keywords of ${MAX_KEYWORD_LENGTH} characters in each language, refusing one more of each naming the field`, async () => {
    // Prepare: the largest configuration of themes there is (600 kB), then each bound passed by one.
    const own = await newTenant();
    const get = () => api({ path: CONFIG, key: own.adminKey });
    const keyword = (i: number) => `${String(i).padStart(3, '0')}${'k'.repeat(MAX_KEYWORD_LENGTH - 3)}`;
    const words = Array.from({ length: MAX_KEYWORDS }, (_, i) => keyword(i));
    const largest = Array.from({ length: MAX_THEMES }, (_, i) => ({
      ...parking(`theme-${String(i).padStart(3, '0')}`),
      keywords: { 'pt-BR': words, es: words, en: words },
    }));
    const before = await get();

    // Act
    const put = await replace2(own.adminKey, { ...before.body, themes: largest }, before.headers.etag!);
    const stored = await get();
    const over = await Promise.all(
      [
        [...largest, parking()],
        [{ ...parking(), keywords: { ...parking().keywords, en: [...words, 'one more'] } }],
        [{ ...parking(), keywords: { ...parking().keywords, es: [`${'k'.repeat(MAX_KEYWORD_LENGTH)}x`] } }],
        [{ ...parking(), slug: 'Estacionamento' }],
        [{ ...parking(), name: { 'pt-BR': 'Estacionamento' } }],
        [parking(), parking()],
        [],
      ].map((themes) => replace2(own.adminKey, { ...stored.body, themes }, stored.headers.etag!)),
    );

    // Assess
    expect(put.status, put.text).toBe(200);
    expect(stored.body.themes).toEqual(largest);
    expect(over.map((res) => res.status)).toEqual(over.map(() => 400));
    expect(over.map((res) => res.body.errors.map((e: { path: string; message: string }) => `${e.path}: ${e.message}`))).toEqual([
      [`themes: may list at most ${MAX_THEMES} themes`],
      [`themes.0.keywords.en: may list at most ${MAX_KEYWORDS} keywords`],
      [`themes.0.keywords.es.0: must be at most ${MAX_KEYWORD_LENGTH} characters`],
      ['themes.0.slug: must be lowercase letters, digits and dashes'],
      [expect.stringMatching(/^themes\.0\.name\.es: /), expect.stringMatching(/^themes\.0\.name\.en: /)],
      ['themes.1.slug: theme parking is defined twice'],
      ['themes: must list at least one theme (leave themes out for the default ones)'],
    ]);
    expect((await get()).headers.etag).toBe(stored.headers.etag);
  });
});

const replace2 = (key: string, body: unknown, etag: string) =>
  api({ method: 'PUT', path: CONFIG, key, body, headers: { 'if-match': etag } });

describe('the brand through the admin API', () => {
  const LOGO = readFileSync(new URL('../../infra/local/demo-logo.png', import.meta.url));
  const upload = (body: Buffer | string, type = 'image/png', key = tenant.adminKey) =>
    api({ method: 'POST', path: '/public/admin/brand/logos', key, headers: { 'content-type': type }, body });
  /** The survey page of a transaction of the tenant, as its customer opens it. */
  const surveyPage = async () => {
    const tx = await api({
      method: 'POST',
      path: '/public/transaction',
      key: tenant.key,
      body: { store_id: 1, employee_id: 1, journey: 'loja', customer_integration: `BRAND-${randomUUID()}`, phone: '11987650000' },
    });
    const link = { tenantId: tenant.tenantId, transactionId: tx.body.id, attemptId: 1, channel: 'whatsapp' as const };
    return api({
      path: surveyPagePath(signSurveyLink({ ...link, expiresAt: Math.floor(Date.now() / 1000) + 3600 }, requireEnv(ENV.surveySecret))),
    });
  };
  usePrivateQueue('surveyDispatch');

  it('a read configuration replaced as it is changes nothing, its ETag included: the brand round-trips', async () => {
    const before = await read();
    const res = await replace(before.body, before.headers.etag);
    expect(res.status).toBe(200);
    expect(res.body.changes).toEqual([]);
    expect([res.headers.etag, res.body.etag]).toEqual([before.headers.etag, before.headers.etag]);
    expect(await read()).toMatchObject({ headers: { etag: before.headers.etag }, body: before.body });
    // Sent again from the same read, it still matches: nothing was written.
    expect((await replace(before.body, before.headers.etag)).status).toBe(200);
  });

  it('an uploaded logo and a new colour: the survey page shows both on the next request, the audit log has old and new', async () => {
    // Prepare: a survey page served once, so that this process holds the old brand.
    expect((await surveyPage()).text).not.toContain('--brand:#7a3e0f');
    const uploaded = await upload(LOGO);
    const before = await read();

    // Act
    const brand = { ...before.body.brand, colour: '#7A3E0F', logo: uploaded.body };
    const res = await replace({ ...before.body, brand }, before.headers.etag);
    const page = await surveyPage();

    // Assess
    const file = `${createHash('sha256').update(LOGO).digest('hex')}.png`;
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toEqual({ file, contentType: 'image/png' });
    expect(uploaded.headers.location).toBe(`/brand/logos/${file}`);
    expect(res.status).toBe(200);
    expect(res.headers.etag).not.toBe(before.headers.etag);
    expect(res.body.changes).toEqual([
      { path: 'brand.colour', old: null, new: '#7a3e0f' },
      { path: 'brand.logo', old: null, new: { file, contentType: 'image/png' } },
    ]);
    expect((await read()).body.brand).toEqual({
      name: before.body.brand.name,
      colour: '#7a3e0f',
      logo: { file, contentType: 'image/png' },
    });
    expect(page.text).toContain(':root{--brand:#7a3e0f}');
    expect(page.text).toMatch(new RegExp(`<img src="https?://[^"]+/brand/logos/${file}"`));
    expect((await api({ path: `/brand/logos/${file}` })).status).toBe(200);
    const audit = await api({ path: '/public/admin/audit', key: tenant.adminKey, query: { limit: 2 } });
    expect(audit.body.data.map((e: { action: string }) => e.action)).toEqual(['config.replace', 'logo.upload']);
    expect(audit.body.data[0].changes).toEqual(res.body.changes);
  });

  it('refuses a bad colour and a logo the tenant did not upload with 400 naming each, and a stale ETag with 412, changing nothing', async () => {
    // Prepare: a logo another tenant uploaded: stored, but not this tenant's.
    const other = await newTenant();
    const foreign = await upload(distinctPng(randomUUID()), 'image/png', other.adminKey);
    const before = await read();

    // Act
    const bad = await replace(
      { ...before.body, brand: { ...before.body.brand, colour: '#ffcc00', logo: foreign.body } },
      before.headers.etag,
    );
    const made = await replace(
      { ...before.body, brand: { ...before.body.brand, logo: { file: `${'0'.repeat(64)}.png`, contentType: 'image/png' } } },
      before.headers.etag,
    );
    const changed = await replace({ ...before.body, brand: { ...before.body.brand, senderName: 'Outro' } }, before.headers.etag);
    const stale = await replace({ ...before.body, brand: { ...before.body.brand, senderName: 'Velho' } }, before.headers.etag);

    // Assess
    expect(foreign.status).toBe(201);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { path: 'brand.colour', message: expect.stringMatching(/contrast ratio of 1\.\d+:1 .* WCAG AA needs at least 4\.5:1/) },
    ]);
    const logo = await replace({ ...before.body, brand: { ...before.body.brand, logo: foreign.body } }, before.headers.etag);
    expect(logo.status).toBe(400);
    expect(logo.body.errors).toEqual([
      { path: 'brand.logo', message: expect.stringContaining('upload it with POST /public/admin/brand/logos') },
    ]);
    expect(made.status).toBe(400);
    expect(changed.status).toBe(200);
    expect(stale.status).toBe(412);
    expect((await read()).body.brand).toEqual({ ...before.body.brand, senderName: 'Outro' });
  });

  it('the same logo uploaded three times at once is one object, recorded and audited once (real concurrency)', async () => {
    const own = await newTenant();
    const bytes = distinctPng(randomUUID());

    const answers = await Promise.all([1, 2, 3].map(() => upload(bytes, 'image/png', own.adminKey)));
    const audit = await api({ path: '/public/admin/audit', key: own.adminKey });

    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.file)).size).toBe(1);
    expect(audit.body.data.filter((e: { action: string }) => e.action === 'logo.upload')).toHaveLength(1);
  });

  it('refuses an SVG, an over-size, an empty and a non-image logo with the reason, storing and recording nothing', async () => {
    const svg = await upload('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'image/svg+xml');
    const large = await upload(Buffer.concat([LOGO.subarray(0, 16), Buffer.alloc(210 * 1024)]));
    const empty = await upload(Buffer.alloc(0));
    const text = await upload('just text', 'image/png');
    const publicKey = await upload(LOGO, 'image/png', tenant.key);

    expect(svg.status).toBe(400);
    expect(svg.body.detail).toBe('The logo is an SVG, which is refused (it can carry scripts); export it as PNG or WebP.');
    expect(svg.body.errors).toEqual([{ path: 'body', message: expect.stringContaining('is an SVG') }]);
    expect(large.status).toBe(400);
    expect(large.body.detail).toBe('The logo is 211 KB; at most 200 KB is accepted.');
    expect(empty.status).toBe(400);
    expect(text.status).toBe(400);
    expect(text.body.detail).toContain('is not a PNG, JPEG or WebP image');
    expect(publicKey.status).toBe(403);
    const audit = await api({ path: '/public/admin/audit', key: tenant.adminKey, query: { limit: 1 } });
    expect(audit.body.data[0]?.action).not.toBe('logo.upload');
  });
});

describe('logos: decoded in full, and counted', () => {
  const upload = (body: Buffer, key: string) =>
    api({ method: 'POST', path: '/public/admin/brand/logos', key, headers: { 'content-type': 'image/png' }, body });

  it('refuses a PNG signature followed by a script, storing nothing, and takes a small valid PNG', async () => {
    const polyglot = Buffer.concat([DEMO_LOGO.subarray(0, 8), Buffer.from('<script>alert(document.cookie)</script>')]);
    const refused = await upload(polyglot, tenant.adminKey);
    const taken = await upload(png(2, 2), tenant.adminKey);

    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ path: 'body', message: 'is not a whole PNG image (a chunk runs past its end)' }]);
    expect((await api({ path: `/brand/logos/${createHash('sha256').update(polyglot).digest('hex')}.png` })).status).toBe(404);
    expect(taken.status, taken.text).toBe(201);
    expect((await api({ path: `/brand/logos/${taken.body.file}` })).status).toBe(200);
  });

  it(`takes at most ${MAX_LOGOS} logos of a tenant, the same bytes again included, and refuses the next naming the limit`, async () => {
    const own = await newTenant();
    const logos = Array.from({ length: MAX_LOGOS }, () => distinctPng(randomUUID()));
    const answers = await Promise.all(logos.map((logo) => upload(logo, own.adminKey)));
    const again = await upload(logos[0]!, own.adminKey);
    const extra = distinctPng(randomUUID());
    const over = await upload(extra, own.adminKey);

    expect(answers.map((a) => a.status)).toEqual(logos.map(() => 201));
    expect(again.status).toBe(201);
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual([
      { path: 'body', message: expect.stringContaining(`has uploaded ${MAX_LOGOS} logos, the most it may`) },
    ]);
    expect((await api({ path: `/brand/logos/${createHash('sha256').update(extra).digest('hex')}.png` })).status).toBe(404);
    // Another tenant's quota is its own.
    expect((await upload(extra, tenant.adminKey)).status).toBe(201);
  });
});

describe('GET /public/admin/audit', () => {
  it('lists each change with who and what, newest first, by cursor and period; refused and empty changes leave none', async () => {
    // Prepare: a tenant of its own, changed twice by its admin key and once refused.
    const own = await newTenant();
    const ownRead = () => api({ path: CONFIG, key: own.adminKey });
    const put = (body: unknown, etag: string | undefined) =>
      api({ method: 'PUT', path: CONFIG, key: own.adminKey, body, headers: { 'if-match': etag ?? '' } });
    const first = await ownRead();
    await put({ ...first.body, name: 'one' }, first.headers.etag);
    const second = await ownRead();
    await put({ ...second.body, privacy: { retentionDays: 90 } }, second.headers.etag);
    await put({ ...second.body, name: 'refused' }, second.headers.etag);
    const third = await ownRead();
    await put(third.body, third.headers.etag);

    // Act
    const all = await api({ path: '/public/admin/audit', key: own.adminKey });
    const page1 = await api({ path: '/public/admin/audit', key: own.adminKey, query: { limit: 1 } });
    const page2 = await api({ path: '/public/admin/audit', key: own.adminKey, query: { limit: 1, cursor: page1.body.next_cursor } });
    const future = await api({ path: '/public/admin/audit', key: own.adminKey, query: { from: '2100-01-01' } });
    const publicKey = await api({ path: '/public/admin/audit', key: own.key });

    // Assess
    expect(all.status).toBe(200);
    expect(all.body.data.map((e: { changes: unknown }) => e.changes)).toEqual([
      [{ path: 'privacy.retentionDays', old: null, new: 90 }],
      [{ path: 'name', old: first.body.name, new: 'one' }],
    ]);
    const [latest] = all.body.data;
    expect(latest).toMatchObject({ action: 'config.replace', actor: { keyId: expect.stringMatching(/^[0-9a-f]{12}$/) } });
    expect(Date.parse(latest.at)).toBeGreaterThan(Date.now() - 60_000);
    expect(all.text).not.toContain(own.adminKey);
    expect([...page1.body.data, ...page2.body.data]).toEqual(all.body.data);
    expect(future.body).toEqual({ data: [], next_cursor: null });
    expect(publicKey.status).toBe(403);
  });
});

describe('admin routes and keys', () => {
  const adminRoutes = routes.filter((r) => r.admin);

  it('has admin routes', () =>
    expect(adminRoutes.map((r) => r.operationId)).toEqual([
      'retryWebhookDelivery',
      'replayWebhookDeliveries',
      'listChatDeliveries',
      'retryChatDelivery',
      'getAdminConfig',
      'listAdminAudit',
      'putAdminConfig',
      'rotateAdminWebhookSecret',
      'createAdminLogo',
      'postAdminDigests',
      'listAdminKeys',
      'createAdminKey',
      'revokeAdminKey',
      'rotateAdminKey',
      'listAdminUsers',
      'createAdminUser',
      'updateAdminUser',
      'getAdminQr',
      'rotateAdminQr',
      'createAdminKiosk',
      'listAdminKiosks',
      'revokeAdminKiosk',
    ]));

  it.each(adminRoutes.map((r) => r.operationId))('%s: a public key gets 403 and changes nothing', async (operationId) => {
    const before = await read();
    const request = validRequests[operationId]!({ configEtag: before.headers.etag } as never);
    const res = await api({ ...request, key: tenant.key });

    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      type: '/problems/forbidden',
      detail: 'This route needs an API key with scope admin, or the user token of a user with role admin.',
    });
    expect(await read()).toMatchObject({ headers: { etag: before.headers.etag } });
  });

  it('an admin key also calls the public API', async () => {
    const res = await api({ path: '/public/store/1', key: tenant.adminKey });
    expect(res.status).toBe(200);
  });
});
