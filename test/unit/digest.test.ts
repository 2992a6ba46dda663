import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import * as v from 'valibot';
import { DEMO_TENANTS_FILE } from '../../infra/local/demo.js';
import type { UserRecord } from '../../shared/access/ports.js';
import type { CaseRecord } from '../../shared/cases/record.js';
import { ENV } from '../../shared/config.js';
import {
  changeOf,
  digestDays,
  digestFigures,
  DIGEST_EXAMPLE_CHARACTERS,
  exampleOf,
  topThemes,
  roseBeyondChance,
} from '../../shared/digest/figures.js';
import { digestEmail } from '../../shared/digest/email.js';
import type { ChatDelivery, ChatDigest, ChatEndpoint } from '../../shared/chat/ports.js';
import { slackMessage } from '../../shared/chat/render.js';
import type { DigestMessage } from '../../shared/digest/schema.js';
import { getsDigest, handleDigest, nextRunAt, scheduleFirstRun, type DigestSendingPorts } from '../../shared/digest/sending.js';
import { digestPage, postedChoice } from '../../shared/workspace/digest-page.js';
import type { Employee } from '../../shared/employees/schema.js';
import { nps } from '../../shared/results/report.js';
import { ResultsQuery } from '../../shared/results/schema.js';
import { resultsService } from '../../shared/results/service.js';
import { answerTally, sentTally, type Counted } from '../../shared/results/tally.js';
import type { Store } from '../../shared/stores/schema.js';
import type { Settings } from '../../shared/tenants/config-schema.js';
import { parseTenantFile } from '../../shared/tenants/tenant-file.js';
import { memoryCases, memoryCounters, memoryThemes } from '../support/memory.js';
import { themeReport } from '../../shared/themes/report.js';
import type { StoredAnswer } from '../../shared/answers/ports.js';

vi.stubEnv(ENV.localDeployment, '1');
const demo = parseTenantFile(readFileSync(DEMO_TENANTS_FILE, 'utf8'), {}).tenants[0]!;
const SETTINGS = { ...demo, timeZone: 'America/Sao_Paulo' } as unknown as Settings;
const TENANT = 7;
const STORES = [
  { id: 1, trade_name: 'Loja Centro' },
  { id: 2, trade_name: 'Loja Norte' },
] as Store[];
const EMPLOYEES = [
  { id: 1, name: 'Ana', groups: [1] },
  { id: 2, name: 'Caio', groups: [2] },
] as Employee[];
/** Monday 1 June 2026, 08:00 in São Paulo: the digest of the week 25 to 31 May, against 18 to 24 May. */
const NOW = new Date('2026-06-01T11:00:00Z');

describe('the digest period', () => {
  it('is the week Monday to Sunday before this one in the tenant zone, or yesterday', () => {
    expect(digestDays('week', NOW, 'America/Sao_Paulo')).toEqual({
      from: '2026-05-25',
      to: '2026-05-31',
      previous: { from: '2026-05-18', to: '2026-05-24' },
    });
    // 02:00 UTC on Monday is still Sunday in São Paulo: last week is the one before.
    expect(digestDays('week', new Date('2026-06-01T02:00:00Z'), 'America/Sao_Paulo').from).toBe('2026-05-18');
    expect(digestDays('week', new Date('2026-06-01T02:00:00Z'), 'UTC').from).toBe('2026-05-25');
    expect(digestDays('day', NOW, 'America/Sao_Paulo')).toEqual({
      from: '2026-05-31',
      to: '2026-05-31',
      previous: { from: '2026-05-30', to: '2026-05-30' },
    });
  });
});

describe('a change of score', () => {
  it('is beyond chance only when its interval excludes zero', () => {
    const small = changeOf(nps(10, 6, 2), nps(10, 4, 3))!;
    expect(small.delta).toBe(30);
    expect(small.significant).toBe(false);
    const large = changeOf(nps(2000, 1200, 400), nps(2000, 1000, 500))!;
    expect(large.delta).toBe(15);
    expect(large.significant).toBe(true);
    expect(large.ci95[0]).toBeGreaterThan(0);
    expect(changeOf(nps(3, 3, 0), null)).toBeNull();
  });
});

/** Journey loja: store 1 gets 9, 10, 10 last week and 6 the week before; store 2 gets 3 last week; one survey unanswered. */
function counters() {
  const counted = memoryCounters();
  const answer = (storeId: number, employeeId: number, score: number, day: string) => {
    const where: Counted = { journeyId: 1, storeId, employeeId };
    counted.add(TENANT, { journeyId: 1, deltas: sentTally(where, new Date(`${day}T09:00:00Z`)) });
    counted.add(TENANT, {
      journeyId: 1,
      deltas: answerTally(where, { indicator: 'nps', score, items: [], answeredAt: `${day}T12:00:00Z`, sentOn: day }),
    });
  };
  answer(1, 1, 9, '2026-05-25');
  answer(1, 2, 10, '2026-05-27');
  answer(1, 1, 10, '2026-05-31');
  answer(2, 2, 3, '2026-05-29');
  answer(1, 1, 6, '2026-05-20');
  counted.add(TENANT, { journeyId: 1, deltas: sentTally({ journeyId: 1, storeId: 2, employeeId: 2 }, new Date('2026-05-30T09:00:00Z')) });
  return counted;
}

const results = resultsService({
  counters: counters(),
  settings: async () => SETTINGS,
  stores: { getMany: async (_t, ids) => STORES.filter((s) => ids.includes(s.id)) },
  employees: { getMany: async (_t, ids) => EMPLOYEES.filter((e) => ids.includes(e.id)) },
});
/**
 * The demo journeys' analysed comments of the week: two detractors on the wait (store 1 and 2), one on price, a promoter
 * on staff; and `more` detractors' comments on the wait at store 1, at the instants given.
 */
function analysed(more: { comment: string; at: string }[] = []) {
  const themes = memoryThemes();
  const answer = (id: number, storeId: number, score: number, at: string, comment: string, found: string[]): StoredAnswer => ({
    id,
    transactionId: null,
    answeredAt: at,
    journeyId: 1,
    storeId,
    employeeId: 1,
    customerId: 1,
    customerName: 'Maria',
    source: 'api',
    score,
    comment,
    items: [],
    sentiment: 'negative',
    themes: found,
    aspects: found.map((theme) => ({ theme, sentiment: 'negative' as const })),
  });
  themes.add(
    TENANT,
    answer(1, 1, 2, '2026-05-26T12:00:00Z', 'A fila demorou, me liguem no 11 98765-4321', ['wait', 'price']),
    'detractor',
    'negative',
  );
  themes.add(TENANT, answer(2, 2, 4, '2026-05-29T12:00:00Z', 'Fila   enorme\nno caixa', ['wait']), 'detractor', 'negative');
  themes.add(
    TENANT,
    answer(3, 1, 10, '2026-05-30T12:00:00Z', 'Atendente muito simpática, mas a fila...', ['staff', 'wait']),
    'promoter',
    'positive',
  );
  // The week before: not this digest's.
  themes.add(TENANT, answer(4, 1, 0, '2026-05-20T12:00:00Z', 'Preço alto', ['price']), 'detractor', 'negative');
  for (const [i, { comment, at }] of more.entries())
    themes.add(TENANT, answer(10 + i, 1, 1, at, comment, ['wait']), 'detractor', 'negative');
  return { report: themeReport({ counters: themes.counters, settings: async () => SETTINGS }).report, answers: themes.answers };
}
const noThemes = () => {
  const themes = memoryThemes();
  return { report: themeReport({ counters: themes.counters, settings: async () => SETTINGS }).report, answers: themes.answers };
};

const storeNames = async (_tenant: number, ids: number[]) =>
  new Map(STORES.filter((s) => ids.includes(s.id)).map((s) => [s.id, s.trade_name]));

const user = (scope: UserRecord['scope'] = 'all'): Promise<UserRecord> =>
  Promise.resolve({ name: 'gerente@demo.local', scope, tokenHash: 'h', created_at: '2026-01-01T00:00:00Z' });

const aCase = (id: number, storeId: number, overdue: boolean): CaseRecord =>
  ({
    id,
    journeyId: 1,
    storeId,
    employeeId: 1,
    customerId: 1,
    customerName: 'Maria',
    score: 3,
    comment: null,
    answeredAt: '2026-05-29T12:00:00Z',
    openedAt: '2026-05-29T12:00:00Z',
    dueAt: '2026-05-30T12:00:00Z',
    overdue,
    overdueAt: overdue ? '2026-05-30T12:00:00Z' : null,
    owner: null,
    status: 'open',
    firstContactAt: null,
    closedAt: null,
  }) as CaseRecord;

async function digestOf(scope: UserRecord['scope'], store?: number, themes = noThemes()) {
  const cases = memoryCases();
  await cases.open(TENANT, aCase(1, 2, true), []);
  await cases.open(TENANT, aCase(2, 1, false), []);
  const ports = {
    report: results.report,
    settings: async () => SETTINGS,
    cases,
    themes,
    storeNames,
    baseUrl: 'https://pesquisa.example',
  };
  return digestFigures(ports, { tenantId: TENANT, period: 'week', store, now: NOW }, user(scope));
}

const report = (query: Record<string, string>, scope: UserRecord['scope'] = 'all') =>
  results.report(TENANT, v.parse(ResultsQuery, { journey: 'loja', group_by: 'journey', ...query }), user(scope));

describe('the digest figures', () => {
  it("equal the results' for the same period and scope, with the change against the week before", async () => {
    const digest = await digestOf('all');
    const loja = digest.journeys.find((j) => j.journey.slug === 'loja')!;
    const [week] = (await report({ from: '2026-05-25', to: '2026-05-31' })).data;
    const [before] = (await report({ from: '2026-05-18', to: '2026-05-24' })).data;
    expect(loja).toMatchObject({
      score: week!.nps!.score,
      ci95: week!.nps!.ci95,
      previous_score: before!.nps!.score,
      responses: 4,
      sent: 5,
      response_rate: week!.response_rate,
      ranked_by: 'store',
    });
    expect(loja.change).toMatchObject({ delta: week!.nps!.score - before!.nps!.score, significant: false });
    // Too few answers in each store to rank (the journey's minimum is 5): both listed apart.
    expect(loja.ranking.few.map((r) => r.label).sort()).toEqual(['Loja Centro', 'Loja Norte']);
    // Each case by its store's name, its age, owner and short number; the overdue one apart.
    expect(digest.cases.open.map((c) => [c.id, c.link, c.store, c.owner, c.number])).toEqual([
      [2, 'https://pesquisa.example/app/cases/2', 'Loja Centro', null, 2],
    ]);
    expect(digest.cases.overdue.map((c) => [c.id, c.store, c.age_days])).toEqual([[1, 'Loja Norte', 2]]);
  });

  it("keeps to a limited user's stores, ranking employees for one store", async () => {
    const digest = await digestOf({ stores: [1], groups: [1, 2] });
    const loja = digest.journeys.find((j) => j.journey.slug === 'loja')!;
    const [week] = (await report({ from: '2026-05-25', to: '2026-05-31' }, { stores: [1], groups: [1, 2] })).data;
    expect(loja).toMatchObject({ score: week!.nps!.score, responses: 3, ranked_by: 'employee' });
    expect(loja.ranking.few.map((r) => r.label).sort()).toEqual(['Ana', 'Caio']);
    expect(digest.cases.open.map((c) => c.id)).toEqual([2]);
    expect(digest.cases.overdue).toEqual([]);
  });

  it("ranks the stores as the results rank them, by the tenant's minimum of answers to rank", async () => {
    // Prepare: a tenant that ranks from 1 answer (the journey's minimum sample stays 5).
    const settings = { ...SETTINGS, minAnswersToRank: 1 };
    const ranking = resultsService({
      counters: counters(),
      settings: async () => settings,
      stores: { getMany: async (_t, ids) => STORES.filter((s) => ids.includes(s.id)) },
      employees: { getMany: async (_t, ids) => EMPLOYEES.filter((e) => ids.includes(e.id)) },
    });
    const ports = {
      report: ranking.report,
      settings: async () => settings,
      cases: memoryCases(),
      themes: noThemes(),
      storeNames,
      baseUrl: '',
    };
    // Act
    const digest = await digestFigures(ports, { tenantId: TENANT, period: 'week', now: NOW }, user());
    const stores = await ranking.report(
      TENANT,
      v.parse(ResultsQuery, { journey: 'loja', group_by: 'store', from: '2026-05-25', to: '2026-05-31' }),
      user(),
    );
    // Assess: the digest's best are the results' ranks in order, none listed apart.
    const loja = digest.journeys.find((j) => j.journey.slug === 'loja')!;
    const byRank = [...stores.data].sort((a, b) => a.rank! - b.rank!).map((r) => r.label);
    expect(loja.ranking.best.map((r) => r.label)).toEqual(byRank);
    expect(byRank).toEqual(['Loja Centro', 'Loja Norte']);
    expect(loja.ranking.few).toEqual([]);
  });

  it('names the top complaints (negative mentions), each with comments of low scores redacted, and the praise, in the scope', async () => {
    // Act
    const all = await digestOf('all', undefined, analysed());
    const one = await digestOf({ stores: [1], groups: [1, 2] }, undefined, analysed());
    // Assess: wait (2 detractors) before price (1 this week; the week before's is not counted); staff has no detractor.
    expect(all.themes).toEqual([
      {
        theme: 'wait',
        name: expect.any(String),
        negative: 2,
        previous_negative: 0,
        rose: false,
        examples: ['Fila enorme no caixa', 'A fila demorou, me liguem no [phone]'],
      },
      {
        theme: 'price',
        name: expect.any(String),
        negative: 1,
        previous_negative: 1,
        rose: false,
        examples: ['A fila demorou, me liguem no [phone]'],
      },
    ]);
    expect(all.praise.map((p) => [p.theme, p.positive])).toEqual([
      ['staff', 1],
      ['wait', 1],
    ]);
    expect(one.themes.map((t) => [t.theme, t.negative, t.examples])).toEqual([
      ['price', 1, ['A fila demorou, me liguem no [phone]']],
      ['wait', 1, ['A fila demorou, me liguem no [phone]']],
    ]);
    expect((await digestOf('all')).themes).toEqual([]);
  });

  it("never quotes the same words twice as a theme's two examples (case, accents, punctuation and spaces aside)", async () => {
    const themes = analysed([
      { comment: 'Demorou muito', at: '2026-05-31T10:00:00Z' },
      { comment: 'demorou  MUITO!', at: '2026-05-31T11:00:00Z' },
    ]);
    const digest = await digestOf('all', undefined, themes);
    expect(digest.themes.find((t) => t.theme === 'wait')?.examples).toEqual(['demorou MUITO!', 'Fila enorme no caixa']);
  });

  it('cuts a long example and keeps the three themes most mentioned by detractors', () => {
    expect(exampleOf('x'.repeat(500))).toHaveLength(DIGEST_EXAMPLE_CHARACTERS);
    expect(exampleOf('meu cpf 123.456.789-09, e-mail ana@example.com')).toBe('meu cpf [cpf], e-mail [email]');
    const row = (theme: string, negative: number) => ({ theme, negative });
    expect(topThemes([row('a', 4), row('b', 3), row('z', 0), row('d', 2), row('c', 2)])).toEqual([row('a', 4), row('b', 3), row('c', 2)]);
    // A rise beyond chance: 30 against 10 is, 6 against 4 is not.
    expect(roseBeyondChance(30, 10)).toBe(true);
    expect(roseBeyondChance(6, 4)).toBe(false);
    expect(roseBeyondChance(4, 6)).toBe(false);
  });

  it('refuses a store outside the scope as results do', async () => {
    await expect(digestOf({ stores: [1], groups: [1] }, 2)).rejects.toThrow('No such store.');
  });
});

describe('the digest e-mail', () => {
  it('is in the tenant language, drawn with table cells only, with a plain-text part and the workspace link', async () => {
    const figures = await digestOf('all');
    for (const [locale, word] of [
      ['pt-BR', 'Resumo semanal'],
      ['es', 'Resumen semanal'],
      ['en', 'Weekly digest'],
    ] as const) {
      const email = digestEmail({
        figures,
        company: 'Demo',
        colour: '#0b5cad',
        locale,
        timeZone: 'America/Sao_Paulo',
        link: 'https://pesquisa.example/app/digest',
        unsubscribe: 'https://pesquisa.example/d/abc/unsubscribe',
      });
      expect(email.subject).toContain(word);
      expect(email.html).toContain(`lang="${locale}"`);
      expect(email.html).not.toMatch(/<script|<img|<svg|<style/i);
      expect(email.html).toContain('https://pesquisa.example/app/digest');
      expect(email.html).toContain('https://pesquisa.example/app/cases/1');
      expect(email.text).toContain('https://pesquisa.example/app/digest');
      expect(email.html).toContain('href="https://pesquisa.example/d/abc/unsubscribe"');
      expect(email.text).toContain('https://pesquisa.example/d/abc/unsubscribe');
      expect(email.text).toContain('Loja Centro');
    }
  });
});

describe('a journey without answers', () => {
  it('says so in one line and lists none of its stores, while a journey with answers lists its store without any', async () => {
    // A manager of three stores, the third without a name on record and without answers in the period: a store without
    // answers is listed too (after the others), so that a manager sees it went quiet.
    const scope = { stores: [1, 2, 3], groups: [] };
    const figures = await digestOf(scope);
    const email = digestEmail({
      figures,
      company: 'Demo',
      locale: 'pt-BR',
      timeZone: 'America/Sao_Paulo',
      link: 'https://x/app/digest',
      unsubscribe: 'https://x/u',
    });
    const page = String(digestPage({ figures, settings: SETTINGS, user: await user(scope), base: '' }).html);
    /** A journey's part of the e-mail's text: from its name to the next blank line. */
    const part = (name: string) => email.text.split('\n\n').find((block) => block.startsWith(`${name}\n`))!;

    const quiet = figures.journeys.filter((j) => j.responses === 0);
    const busy = figures.journeys.find((j) => j.responses > 0)!;
    expect(quiet.length).toBeGreaterThan(0);
    for (const journey of quiet) {
      expect(journey.stores.map((r) => r.answers)).toEqual([0, 0, 0]);
      expect(part(journey.journey.name).split('\n').slice(1)).toEqual(['Nota: -', 'Nenhuma resposta neste período.']);
    }
    expect(part(busy.journey.name)).toContain('\n  3: nenhuma resposta');
    for (const text of [email.html, email.text, page])
      expect(text.match(/: nenhuma resposta/g) ?? [], 'one store listed without answers').toHaveLength(1);
  });
});

describe("the digest's themes", () => {
  it('are a section of the e-mail, its text and the page when comments were analysed, and absent otherwise', async () => {
    const input = {
      company: 'Demo',
      locale: 'pt-BR' as const,
      timeZone: 'America/Sao_Paulo',
      link: 'https://x/app/digest',
      unsubscribe: 'https://x/u',
    };
    const email = digestEmail({ ...input, figures: await digestOf('all', undefined, analysed()) });
    for (const part of [email.html, email.text]) {
      expect(part).toContain('Principais reclamações');
      expect(part).toContain('2 menções negativas');
      expect(part).toContain('Por exemplo: “A fila demorou, me liguem no [phone]”');
      expect(part).not.toContain('98765');
    }
    const none = digestEmail({ ...input, figures: await digestOf('all') });
    // No section disappears: without analysed comments it says so.
    expect(none.html).toContain('Nenhum comentário analisado neste período.');
    expect(none.text).toContain('Nenhum comentário analisado neste período.');
    const page = digestPage({
      figures: await digestOf('all', undefined, analysed()),
      settings: SETTINGS,
      user: await user(),
      base: '',
    });
    expect(String(page.html)).toContain('Por exemplo: “Fila enorme no caixa”');
  });
});

describe('who gets a digest, and when the next one is due', () => {
  const someone = (name: string, fields: Partial<UserRecord> = {}): UserRecord => ({
    name,
    scope: 'all',
    tokenHash: 'h',
    created_at: '2026-01-01T00:00:00Z',
    ...fields,
  });

  it('sends the weekly one to enabled e-mail users who have not opted out, the daily one to those who chose it when it is on', () => {
    const on = { digests: { daily: true } };
    const off = { digests: { daily: false } };
    expect(getsDigest(someone('ana@example.com'), 'week', off)).toBe(true);
    expect(getsDigest(someone('ana@example.com'), 'day', on)).toBe(false);
    expect(getsDigest(someone('ana@example.com', { digest: 'daily' }), 'day', on)).toBe(true);
    expect(getsDigest(someone('ana@example.com', { digest: 'daily' }), 'day', off)).toBe(false);
    expect(getsDigest(someone('ana@example.com', { digest: 'daily' }), 'day', {})).toBe(false);
    expect(getsDigest(someone('ana@example.com', { digest: 'daily' }), 'week', off)).toBe(true);
    expect(getsDigest(someone('ana@example.com', { digest: 'off' }), 'week', on)).toBe(false);
    expect(getsDigest(someone('ana@example.com', { disabled_at: '2026-02-01T00:00:00Z' }), 'week', on)).toBe(false);
    expect(getsDigest(someone('demo-admin'), 'week', on)).toBe(false);
  });

  it('is the next 08:00 in the tenant zone', () => {
    // Thursday 26 November 2026, 12:00 in São Paulo (UTC-3): Friday 27, 08:00 there, is 11:00 UTC.
    expect(nextRunAt(new Date('2026-11-26T15:00:00Z'), 'America/Sao_Paulo').toISOString()).toBe('2026-11-27T11:00:00.000Z');
    // 07:59 there: that same morning; 08:00 already: the morning after.
    expect(nextRunAt(new Date('2026-11-30T10:59:00Z'), 'America/Sao_Paulo').toISOString()).toBe('2026-11-30T11:00:00.000Z');
    expect(nextRunAt(new Date('2026-11-30T11:00:00Z'), 'America/Sao_Paulo').toISOString()).toBe('2026-12-01T11:00:00.000Z');
    // Sunday 23:30 in UTC is already Monday 08:30 in Tokyo: Tuesday's 08:00 there.
    expect(nextRunAt(new Date('2026-11-29T23:30:00Z'), 'Asia/Tokyo').toISOString()).toBe('2026-11-30T23:00:00.000Z');
  });

  /** A tenant's run through in-memory ports: the messages it queues and the timers it parks. */
  function scheduled(daily: boolean, chat: ChatEndpoint[] = []) {
    const settings = { ...SETTINGS, digests: { daily }, alerts: { scoreDrop: false, chat } };
    const cases = memoryCases();
    const queued: DigestMessage[] = [];
    const chats: ChatDelivery[] = [];
    const parked: { period: string; from: string; dueAt: string }[] = [];
    let listed = 0;
    const ports: DigestSendingPorts = {
      figures: { report: results.report, settings: async () => settings, cases, themes: noThemes(), storeNames },
      users: {
        list: async () => {
          listed++;
          return [someone('ana@example.com', { digest: 'daily' }), someone('bia@example.com')];
        },
        find: async () => undefined,
      },
      claims: { claim: async () => true, sent: async () => undefined, release: async () => undefined },
      queue: async (messages) => void queued.push(...messages),
      email: async () => undefined,
      timer: { schedule: async (m, dueAt) => void parked.push({ period: m.period, from: m.from, dueAt: dueAt.toISOString() }) },
      baseUrl: '',
      unsubscribeToken: () => 'token',
      chat: async (delivery) => void chats.push(delivery),
    };
    const run = (dueAt: string) => handleDigest(ports, { version: 1, tenantId: TENANT, period: 'day', from: '', dueAt }, new Date(dueAt));
    return { ports, run, queued, parked, chats, cases, listed: () => listed };
  }

  it("sends the period's digest to each chat endpoint that takes it, for its stores, under one id a period", async () => {
    // Prepare: an endpoint of every store, one of store 2, one that takes case alerts only.
    const all: ChatEndpoint = { kind: 'slack', url: 'http://localhost/all', events: ['digest'], comment: false };
    const norte: ChatEndpoint = {
      kind: 'teams',
      url: 'http://localhost/norte',
      events: ['digest', 'case.opened'],
      stores: [2],
      comment: false,
    };
    const cases: ChatEndpoint = { kind: 'slack', url: 'http://localhost/cases', events: ['case.opened'], comment: false };
    const tenant = scheduled(false, [all, norte, cases]);
    await tenant.cases.open(TENANT, aCase(1, 2, true), []);
    await tenant.cases.open(TENANT, aCase(2, 1, false), []);
    // Act: the Monday run of 1 June, then each message queued, handled twice (a run that fired twice).
    await tenant.run('2026-06-01T11:00:00.000Z');
    const forChat = tenant.queued.filter((m) => m.chat !== undefined);
    for (const message of [...forChat, ...forChat]) expect(await handleDigest(tenant.ports, message, NOW)).toBe('sent');
    // Assess: one message per endpoint taking the digest, the same id each time (the chat's claim sends it once).
    expect(forChat.map((m) => [m.period, m.from, m.chat])).toEqual([
      ['week', '2026-05-25', all.url],
      ['week', '2026-05-25', norte.url],
    ]);
    expect(tenant.chats.map((d) => [d.url, d.event.id, d.event.type])).toEqual([
      [all.url, 'digest-week-2026-05-25', 'digest'],
      [norte.url, 'digest-week-2026-05-25', 'digest'],
      [all.url, 'digest-week-2026-05-25', 'digest'],
      [norte.url, 'digest-week-2026-05-25', 'digest'],
    ]);
    const [every, north] = tenant.chats.map((d) =>
      slackMessage({ type: 'digest', locale: 'pt-BR', ...(d.event.data as unknown as ChatDigest) }),
    );
    const text = (message: typeof every) => JSON.stringify(message);
    // Every store: 4 answers, both open cases; store 2 alone: its 1 answer, its employees ranked, its overdue case.
    expect(every!.text).toContain('Resumo semanal');
    expect(text(every!)).toContain('Respostas: 4');
    expect(text(every!)).toContain('Casos atrasados: 1 · Casos abertos: 1');
    expect(text(every!)).toContain('/app/digest?period=week');
    expect(text(north!)).toContain('Respostas: 1');
    expect(text(north!)).not.toContain('Loja Centro');
    expect(text(north!)).toContain('Casos atrasados: 1 · Casos abertos: 0');
    // An endpoint no longer taking the digest gets nothing.
    expect(await handleDigest(tenant.ports, { ...forChat[0]!, chat: cases.url }, NOW)).toBe('nobody');
  });

  it('queues every morning the daily digests when the tenant has them on, and the weekly ones on Monday', async () => {
    const on = scheduled(true);
    // Tuesday 2 June 2026, 08:00 in São Paulo: yesterday's digest for Ana, who chose it; the next run Wednesday.
    expect(await on.run('2026-06-02T11:00:00.000Z')).toBe('queued');
    expect(on.queued.map((m) => [m.period, m.from, m.user])).toEqual([['day', '2026-06-01', 'ana@example.com']]);
    expect(on.parked).toEqual([{ period: 'day', from: '2026-06-02', dueAt: '2026-06-03T11:00:00.000Z' }]);
    // Monday 8 June: last week's for both, and Sunday's for Ana.
    on.queued.length = 0;
    await on.run('2026-06-08T11:00:00.000Z');
    expect(on.queued.map((m) => [m.period, m.from, m.user])).toEqual([
      ['week', '2026-06-01', 'ana@example.com'],
      ['week', '2026-06-01', 'bia@example.com'],
      ['day', '2026-06-07', 'ana@example.com'],
    ]);
  });

  it('reads no user on a morning with nothing to send, and still parks the next run', async () => {
    const off = scheduled(false);
    await off.run('2026-06-02T11:00:00.000Z');
    expect(off.queued).toEqual([]);
    expect(off.listed()).toBe(0);
    expect(off.parked.map((t) => t.dueAt)).toEqual(['2026-06-03T11:00:00.000Z']);
    await off.run('2026-06-08T11:00:00.000Z');
    expect(off.queued.map((m) => [m.period, m.user])).toEqual([
      ['week', 'ana@example.com'],
      ['week', 'bia@example.com'],
    ]);
  });

  it("parks a new tenant's first run in the table: more than the queue's delay ahead", async () => {
    const { ports, parked } = scheduled(false);
    // 07:50 in São Paulo: this morning's 08:00 is within the queue's 15 minutes, so the first run is tomorrow's.
    await scheduleFirstRun(ports, TENANT, { settings: SETTINGS, now: new Date('2026-06-02T10:50:00Z') });
    await scheduleFirstRun(ports, TENANT, { settings: SETTINGS, now: new Date('2026-06-02T10:00:00Z') });
    expect(parked.map((t) => t.dueAt)).toEqual(['2026-06-03T11:00:00.000Z', '2026-06-02T11:00:00.000Z']);
  });
});

describe('the digest page', () => {
  it("shows the e-mail's figures in the tenant language, each case a link under the stage's base", async () => {
    const figures = await digestOf('all');
    const page = digestPage({ figures, settings: { ...SETTINGS, locale: 'en' }, user: await user(), base: '/prod' });
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="en">');
    expect(page.html).toContain('Weekly digest');
    expect(page.html).toContain('href="/prod/app/cases/1"');
    expect(page.html).toContain('aria-current="page"');
  });

  it("holds the user's own choice of digest, posted to the page; the daily one said to be off while the tenant has it off", async () => {
    const figures = await digestOf('all');
    const chooser = { ...(await user()), digest: 'daily' as const };
    const page = digestPage({ figures, settings: { ...SETTINGS, locale: 'en' }, user: chooser, base: '/prod', choice: 'saved' });
    expect(page.html).toContain('<form method="post" action="/prod/app/digest">');
    expect(page.html).toContain('<input type="radio" name="digest" value="daily" checked>');
    expect(page.html).toContain('<input type="radio" name="digest" value="off">');
    expect(page.html).toContain('Choice saved.');
    expect(page.html).toContain('Your company sends no daily digests');
    const on = digestPage({ figures, settings: { ...SETTINGS, locale: 'en', digests: { daily: true } }, user: chooser, base: '' });
    expect(on.html).not.toContain('Your company sends no daily digests');
    const refused = digestPage({ figures, settings: SETTINGS, user: chooser, base: '', choice: 'invalid' });
    expect(refused.status).toBe(400);
    expect(postedChoice(new URLSearchParams('digest=off'))).toBe('off');
    expect(postedChoice(new URLSearchParams('digest=monthly'))).toBeUndefined();
  });
});
