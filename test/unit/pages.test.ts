import type { ExportJob } from '../../shared/answers/export.js';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { colour, html, message, raw, safeUrl } from '../../shared/html.js';
import type { Locale } from '../../shared/locale.js';
import type { ResultRow } from '../../shared/results/report.js';
import type { Report } from '../../shared/results/service.js';
import type { JourneyConfig, Settings } from '../../shared/tenants/config-schema.js';
import type { UserRecord } from '../../shared/access/ports.js';
import { answersPage } from '../../shared/workspace/answers-page.js';
import { resultsPage } from '../../shared/workspace/results-page.js';
import { showSignIn, signInPage } from '../../shared/workspace/sign-in-page.js';
import { adminGeneralPage } from '../../shared/workspace/admin-general-page.js';
import { expiryOf } from '../../shared/workspace/admin-keys-page.js';
import { adminUsersPage } from '../../shared/workspace/admin-users-page.js';
import { tenantUsers } from '../../shared/access/tenant-users.js';
import { sealer } from '../../shared/sealed.js';
import { memoryAccess, memoryAudit, memoryInvitations, memorySignIn } from '../support/memory.js';
import type { AnswerBody } from '../../shared/answers/schema.js';
import type { ConfigDocument } from '../../shared/tenants/config-schema.js';
import { surveyPage } from '../../shared/surveys/page-html.js';
import { casesFrameOf, casesPage } from '../../shared/workspace/cases-page.js';
import type { ShownAnalysis } from '../../shared/themes/ports.js';
import { DEFAULT_THEMES } from '../../shared/themes/themes.js';
import type { CaseBody } from '../../shared/cases/bodies.js';

/** A value that breaks out of every context it could land in, if it were not escaped. */
const HOSTILE = `"><script>alert(1)</script><img src=x onerror=alert(2) title='`;
/** What an escaped HOSTILE reads as in the HTML. */
const ESCAPED = '&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2) title=&#39;';

/** Prepare: a page must show HOSTILE only escaped (never a tag it opens), and never escape twice. */
function expectEscaped(page: string) {
  expect(page).toContain(ESCAPED);
  expect(page).not.toContain('<script>alert(1)');
  expect(page).not.toMatch(/<img src=x/);
  expect(page).not.toContain('&amp;lt;');
}

describe('the html template', () => {
  it('escapes every value, keeps what is already HTML, joins lists and renders nothing for null, undefined and false', () => {
    const item = (text: string) => html`<li>${text}</li>`;
    const page = html`<p title="${HOSTILE}">${HOSTILE}${null}${undefined}${false}${0}</p><ul>${['a&b', HOSTILE].map(item)}</ul>${raw('<hr>')}`;
    expect(String(page)).toBe(`<p title="${ESCAPED}">${ESCAPED}0</p><ul><li>a&amp;b</li><li>${ESCAPED}</li></ul><hr>`);
  });

  it('refuses a link or a source that is not http(s), mailto, tel or relative, however it is spelled', () => {
    for (const href of ['javascript:alert(1)', ' JavaScript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<b>', 'vbscript:x'])
      expect(() => html`<a href="${href}">x</a>`, href).toThrow(/http/);
    // A value that only completes a link checked as a whole: an empty base and a scheme after it is no way around.
    expect(() => html`<a href="${''}${'javascript:alert(1)'}">x</a>`).toThrow(/http/);
    expect(() => html`<form action="${'javascript:x'}"></form>`).toThrow(/http/);
    for (const href of [
      'https://example.com/a?b=1&c=2',
      '/app/cases',
      '../token',
      'token/unsubscribe',
      '?page=2',
      'mailto:a@b.c',
      'tel:+5511',
    ])
      expect(String(html`<a href="${href}">x</a>`), href).toContain(`href="${href.replace(/&/g, '&amp;')}"`);
    expect(safeUrl('javascript:alert(1)')).toBeUndefined();
  });

  it('takes only a checked colour, a number or HTML inside a style, and refuses an unquoted attribute', () => {
    expect(() => html`<td style="background:${'red;background-image:url(x)'}">`).toThrow(/Colour/);
    expect(() => html`<style>${'a{}'}</style>`).toThrow(/Colour/);
    expect(colour('red;x')).toBeUndefined();
    expect(String(html`<td style="background:${colour('#0b5cad')};width:${44}px">`)).toBe('<td style="background:#0b5cad;width:44px">');
    expect(() => html`<input value=${'x'}>`).toThrow(/unquoted/);
  });

  it('formats a message around HTML arguments: the words escaped, the HTML kept', () => {
    const said = message((args) => `Due ${args.when} for ${args.who}`, { when: html`<time>today</time>`, who: HOSTILE });
    expect(String(said)).toBe(`Due <time>today</time> for ${ESCAPED}`);
  });
});

const USER: UserRecord = { name: HOSTILE, scope: 'all', tokenHash: 'x', created_at: '2026-01-01T00:00:00Z', role: 'member' };
const ADMIN: UserRecord = { name: 'admin@aurora.test', scope: 'all', tokenHash: 'x', created_at: '2026-01-01T00:00:00Z', role: 'admin' };
const JOURNEY = { id: 1, slug: 'visit', name: HOSTILE, indicator: 'nps', classes: [1, 2] } as JourneyConfig;
const LOGO = { file: 'abc.png', type: 'image/png', width: 10, height: 10 } as unknown as NonNullable<Settings['brand']>['logo'];

const row = (over: Partial<ResultRow>): ResultRow => ({
  key: '1',
  label: HOSTILE,
  responses: 12,
  sources: { transaction: 12, qr: 0, kiosk: 0 },
  sent: 20,
  response_rate: 0.6,
  asked: 20,
  asked_response_rate: 0.6,
  mean: null,
  scale: { min: 0, max: 10 },
  nps: { score: 25, ci95: [10, 40] } as ResultRow['nps'],
  low_sample: false,
  interval: { low: 10, high: 40 },
  rank: null,
  worst_rank: null,
  change: null,
  cases: {
    opened: 2,
    first_contact_median_minutes: 30,
    first_contact_median_range: { low: 15, high: 30 },
    resolved: 1,
    resolved_within_deadline: 0.5,
    deadline_decided: 1,
    resolved_in_time: 1,
    on_time_rate: 1,
    recovery_answers: 1,
    recovery_rate: 1,
  },
  ...over,
});

/** Stores as the results rank them: two ranked, one changed beyond chance, and one with too few answers. */
const RANKED_STORES = [
  row({ key: '1', label: 'Centro', rank: 1, worst_rank: 2, change: { value: 20, low: 4.1, high: 35.2, significant: true } }),
  row({ key: '2', label: 'Norte', rank: 2, worst_rank: 1, change: { value: 3, low: -9, high: 15, significant: false } }),
  row({
    key: '3',
    label: 'Sul',
    responses: 2,
    rank: null,
    worst_rank: null,
    change: { value: -40, low: -120, high: 60, significant: false },
  }),
];

/** The results page over records in memory: no table, no emulator. */
const results = (locale: Locale) =>
  resultsPage({
    settings: async () => ({ journeys: [JOURNEY], locale, brand: { name: 'Café Aurora', logo: LOGO } }),
    report: async (_tenant, query): Promise<Report> => ({
      journey: { id: 1, slug: 'visit', indicator: 'nps' },
      from: query.from,
      to: query.to,
      group_by: query.group_by,
      min_sample: 5,
      min_answers_to_rank: 5,
      compared_with: null,
      data: query.group_by === 'store' ? RANKED_STORES : [row({ key: query.group_by === 'day' ? '2026-11-20' : '1' })],
    }),
    themes: async (_tenant, query) => ({
      journey: { id: 1, slug: 'visit', indicator: 'nps' },
      from: query.from,
      to: query.to,
      group_by: 'theme',
      previous: { from: '2026-10-06', to: '2026-10-31' },
      data: [
        {
          theme: 'wait',
          name: 'Espera',
          comments: 8,
          negative: 7,
          positive: 1,
          previous_negative: 0,
          detractors: 6,
          passives: 1,
          promoters: 1,
          score: -62.5,
          change: -12.5,
          negative_change: { value: 5, low: 0.6, high: 9.6, significant: true },
          positive_change: { value: 0, low: -3.1, high: 3.1, significant: false },
          ...(query.interval ? { intervals: LINE } : {}),
        },
        {
          theme: 'staff',
          name: 'Atendimento',
          comments: 4,
          negative: 0,
          positive: 3,
          previous_negative: 0,
          detractors: 0,
          passives: 2,
          promoters: 2,
          score: 50,
          change: null,
          negative_change: { value: 0, low: -3.8, high: 3.8, significant: false },
          positive_change: { value: 3, low: -0.4, high: 6.8, significant: false },
        },
      ],
    }),
    drivers: async (_tenant, query) => ({
      journey: { id: 1, slug: 'visit', indicator: 'nps' },
      from: query.from,
      to: query.to,
      group_by: 'driver',
      method: 'shapley_r2',
      answers: 120,
      min_answers: 30,
      r2: 0.42,
      reason: null,
      first_to_improve: '2',
      data: [
        {
          key: '1',
          label: 'Rapidez',
          importance: 0.25,
          share: 0.6,
          performance: 4.5,
          scale: { min: 1, max: 5 },
          performance_share: 0.875,
          beta: 0.5,
          t: 6,
          beyond_chance: true,
        },
        {
          key: '2',
          label: HOSTILE,
          importance: 0.15,
          share: 0.357,
          performance: 3.1,
          scale: { min: 1, max: 5 },
          performance_share: 0.525,
          beta: 0.3,
          t: 3.2,
          beyond_chance: true,
        },
        {
          key: '3',
          label: 'Estacionamento',
          importance: 0.02,
          share: 0.043,
          performance: 3,
          scale: { min: 1, max: 5 },
          performance_share: 0.5,
          beta: 0.01,
          t: 0.3,
          beyond_chance: false,
        },
      ],
    }),
    examples: async (_tenant, query) => {
      examplesAsked.push(query);
      return new Map([['wait:negative', [`Fila enorme ${HOSTILE}`, 'Demorou muito, [phone]']]]);
    },
  })({ tenantId: 1, user: USER, base: '', query: { from: '2026-11-01', to: '2026-11-26' }, today: '2026-11-26' });
const examplesAsked: unknown[] = [];
/** Wait's 12 weeks: complaints rising in the last one. */
const LINE = Array.from({ length: 12 }, (_, i) => ({
  from: `2026-${i < 1 ? '09' : '10'}-0${(i % 9) + 1}`,
  to: `2026-10-0${(i % 9) + 1}`,
  comments: i + 1,
  negative: i === 11 ? 9 : 1,
  positive: 0,
  negative_change: i === 11 ? { value: 8, low: 2.1, high: 13.7, significant: true } : null,
  positive_change: null,
}));

describe('the workspace pages, as pure functions of their records', () => {
  it('the results page escapes every name it shows and speaks the tenant’s language', async () => {
    const words: Record<Locale, string[]> = {
      'pt-BR': ['Resultados', 'Pesquisas enviadas', 'Casos por loja'],
      es: ['Resultados', 'Encuestas enviadas', 'Casos por tienda'],
      en: ['Results', 'Surveys sent', 'Cases by store'],
    };
    for (const locale of ['pt-BR', 'es', 'en'] as const) {
      const page = await results(locale);
      expect(page.status).toBe(200);
      expectEscaped(page.html!);
      expect(page.html).toContain(`<html lang="${locale}">`);
      for (const word of words[locale]) expect(page.html, `${locale} ${word}`).toContain(word);
    }
    expect((await results('en')).html).not.toMatch(/Lojas|Respostas/);
  });

  it('the Themes section lists complaints and praise apart, each with its line, its changes and its newest comments', async () => {
    const words = {
      'pt-BR': ['Do que reclamam', 'O que elogiam', '7 reclamações', '3 elogios', 'Última semana: ↑ +8, além do acaso'],
      es: ['De qué se quejan', 'Qué elogian', '7 quejas', '3 elogios', 'Última semana: ↑ +8, más allá del azar'],
      en: ['What they complain about', 'What they praise', '7 complaints', '3 compliments', 'Last week: ↑ +8, beyond chance'],
    };
    for (const locale of ['pt-BR', 'es', 'en'] as const) {
      const html = (await results(locale)).html!;
      for (const word of words[locale]) expect(html, `${locale} ${word}`).toContain(word);
      expectEscaped(html);
      const complaints = html.slice(html.indexOf('id="complaints"'), html.indexOf('id="praise"'));
      const praise = html.slice(html.indexOf('id="praise"'), html.indexOf('<table id="themes"'));
      // Wait in the complaints with its two comments (quoted as given: redacted by the port); staff, with no
      // complaint, only in the praise, first (3 compliments to wait's 1).
      expect(complaints).toContain('Espera');
      expect(complaints).not.toContain('Atendimento');
      expect(complaints).toContain('Demorou muito, [phone]');
      expect(praise.indexOf('Atendimento')).toBeGreaterThan(0);
      expect(praise.indexOf('Atendimento')).toBeLessThan(praise.indexOf('Espera'));
      expect(praise).not.toContain('Demorou muito');
      // The line: 12 bars, named by their counts in words.
      expect(complaints.match(/<rect /g)).toHaveLength(12);
      expect(complaints).toMatch(/<svg class="sparkline negative" role="img" aria-label="[^"]*1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 9"/);
    }
    expect(examplesAsked.at(-1)).toMatchObject({
      journey: 'visit',
      wanted: [
        { theme: 'wait', polarity: 'negative' },
        { theme: 'staff', polarity: 'positive' },
        { theme: 'wait', polarity: 'positive' },
      ],
    });
  });

  it('the answers page escapes the comment, the names and the labels, and speaks the tenant’s language', async () => {
    const settings: Pick<Settings, 'journeys' | 'classes' | 'locale' | 'timeZone' | 'brand'> = {
      journeys: [JOURNEY],
      classes: [{ id: 3, label: HOSTILE } as Settings['classes'][number]],
      locale: 'es',
    };
    const answer = {
      id: 1,
      number: null,
      transaction_id: null,
      answered_at: '2026-11-20T10:00:00Z',
      journey: { id: 1, slug: 'visit', indicator: 'nps' as const },
      store: 7,
      employee: 8,
      customer: { id: 9, name: HOSTILE },
      channel: 'email' as const,
      score: 3,
      bucket: 'detractor' as const,
      comment: HOSTILE,
      classes: [{ class_id: 3, label: HOSTILE, score: 2 }],
      sentiment: null,
      themes: null,
      aspects: null,
    };
    const { showAnswers } = answersPage({
      settings: async () => settings,
      listAnswers: async () => ({ body: { data: [answer], limit: 20, next_cursor: 'next' }, shownCustomers: [9], csv: () => '' }),
      storeNames: async () => new Map([[7, HOSTILE]]),
      storeChoices: async () => new Map([[7, HOSTILE]]),
      employeeChoices: async () => new Map(),
      employeeNames: async () => new Map(),
      recordReads: async () => undefined,
      exports: { find: async () => undefined },
    });
    const page = await showAnswers({ tenantId: 1, user: USER, base: '/stage', requestId: 'r', query: {} });
    expect(page.status).toBe(200);
    expectEscaped(page.html!);
    for (const word of ['Respuestas', 'Detractor', 'Empleado 8', 'Más antiguas', 'siga “Más antiguas” y exporte de nuevo'])
      expect(page.html).toContain(word);
  });

  it('the answers page offers the export of its filters, then shows its progress, then its link', async () => {
    // Prepare: an export of the page's filters, running, then done.
    const job: ExportJob = {
      id: 'job1',
      run: 'run1',
      user: USER.name,
      filters: { from: '2026-11-01', to: '2026-11-26', store: '7' },
      scope: 'all',
      status: 'running',
      rows: 1500,
      startedAt: new Date().toISOString(),
    };
    let found: ExportJob | undefined;
    const { showAnswers } = answersPage({
      settings: async () => ({ journeys: [JOURNEY], classes: [], locale: 'pt-BR' }),
      listAnswers: async () => ({ body: { data: [], limit: 20, next_cursor: null }, shownCustomers: [], csv: () => '' }),
      storeNames: async () => new Map(),
      storeChoices: async () => new Map(),
      employeeChoices: async () => new Map(),
      employeeNames: async () => new Map(),
      recordReads: async () => undefined,
      exports: { find: async () => found },
    });
    const show = async () =>
      (await showAnswers({ tenantId: 1, user: USER, base: '/stage', requestId: 'r', query: { store: '7', journey: HOSTILE } })).html!;
    // Act, Assess: none yet, a button that posts the filters; running, its progress and no button; done, its link.
    const none = await show();
    expect(none).toContain('<form method="post" action="/stage/app/answers/exports">');
    expect(none).toContain('<input type="hidden" name="store" value="7">');
    expectEscaped(none);
    found = job;
    const running = await show();
    expect(running).toContain('Preparando a planilha: 1.500 respostas escritas.');
    expect(running).not.toContain('action="/stage/app/answers/exports"');
    found = { ...job, status: 'done', rows: 2000, finishedAt: new Date().toISOString() };
    const done = await show();
    expect(done).toContain('Planilha pronta: 2.000 respostas.');
    expect(done).toContain('<a href="/stage/app/answers/exports/job1">Baixar a planilha</a>');
    found = { ...job, status: 'done', finishedAt: new Date(Date.now() - 2 * 86_400_000).toISOString() };
    expect(await show()).not.toContain('/app/answers/exports/job1');
  });

  it('the answers page offers the tenant’s regions as a filter, keeps the one chosen and passes it to the list', async () => {
    // Prepare: a tenant with a region under another, and one without regions.
    const asked: unknown[] = [];
    const pageOf = (regions?: { id: number; name: string; stores: number[]; parent?: number }[]) =>
      answersPage({
        settings: async () => ({ journeys: [JOURNEY], classes: [], locale: 'es', ...(regions ? { regions } : {}) }),
        listAnswers: async (_tenant, { query }) => (
          asked.push(query),
          { body: { data: [], limit: 20, next_cursor: null }, shownCustomers: [], csv: () => '' }
        ),
        storeNames: async () => new Map(),
        storeChoices: async () => new Map(),
        employeeChoices: async () => new Map(),
        employeeNames: async () => new Map(),
        recordReads: async () => undefined,
        exports: { find: async () => undefined },
      }).showAnswers;
    const regions = [
      { id: 1, name: 'Sul', stores: [1] },
      { id: 2, name: HOSTILE, stores: [2], parent: 1 },
    ];

    // Act
    const chosen = (await pageOf(regions)({ tenantId: 1, user: USER, base: '/stage', requestId: 'r', query: { region: '2' } })).html!;
    const none = (await pageOf()({ tenantId: 1, user: USER, base: '/stage', requestId: 'r', query: {} })).html!;

    // Assess
    expect(chosen).toContain('<label for="f-region">Región</label><select id="f-region" name="region">');
    expect(chosen).toContain('<option value="1">Sul</option>');
    expect(chosen).toMatch(/<option value="2" selected>[^<]*&lt;/);
    expect(chosen).toContain('<input type="hidden" name="region" value="2">');
    expectEscaped(chosen);
    expect(asked[0]).toMatchObject({ region: 2 });
    expect(none).not.toContain('name="region"');
  });

  it('the case page labels the answer after recovery and shows its new score beside the original, in each language', async () => {
    // Prepare: a detractor's case, resolved, whose customer answered the recovery survey with a 9.
    const found: CaseBody = {
      id: 41,
      number: 7,
      transaction_id: 'PDV-41',
      journey: { id: 1, slug: 'visit' },
      store: 7,
      employee: 8,
      customer: { id: 9, name: 'Ana' },
      score: 3,
      comment: null,
      answered_at: '2026-03-05T15:04:00Z',
      status: 'resolved',
      owner: null,
      opened_at: '2026-03-05T15:05:00Z',
      due_at: '2026-03-06T15:05:00Z',
      overdue: false,
      first_contact_at: '2026-03-05T16:00:00Z',
      closed_at: '2026-03-05T17:00:00Z',
      root_cause: 'Fila',
      notes: [],
      history: [],
      recovery: { outcome: 'recovered', at: '2026-03-07T10:00:00Z', score: 9 },
      version: 3,
    };
    const show = (locale: Locale, recovery: CaseBody['recovery']) =>
      casesPage({
        frame: async () => ({
          locale,
          brand: { name: 'Aurora' },
          timeZone: 'America/Sao_Paulo',
          rootCauses: ['Fila'],
          journeys: [JOURNEY],
          themes: new Map(),
        }),
        list: async () => ({ body: { data: [], next_cursor: null }, shownCustomers: [] }),
        get: async () => ({ ...found, recovery }),
        analysis: async () => null,
        revealContact: async () => {
          throw new Error('not revealed');
        },
        candidates: async () => [],
        storeNames: async () => new Map([[7, 'Loja Paulista']]),
        storeChoices: async () => undefined,
        employeeNames: async () => new Map([[8, 'Bia']]),
        recordReads: async () => undefined,
      }).showCase({ tenantId: 1, user: USER, base: '', requestId: 'r', query: {}, id: '41' });

    // Act, Assess
    for (const [locale, label, scores] of [
      ['pt-BR', 'Resposta após a recuperação', 'Nota original 3 · nova nota 9'],
      ['es', 'Respuesta tras la recuperación', 'Nota original 3 · nueva nota 9'],
      ['en', 'Answer after recovery', 'Original score 3 · new score 9'],
    ] as const) {
      const page = (await show(locale, found.recovery)).html!;
      expect(page).toContain(`<h3 id="recovery-title">${label}</h3>`);
      expect(page).toContain(`<p class="score">${scores}</p>`);
    }
    // Still waiting for the customer: the label and the state, no new score.
    const pending = (await show('en', { outcome: 'pending', at: '2026-03-05T17:00:00Z', score: null })).html!;
    expect(pending).toContain('Answer after recovery');
    expect(pending).toContain('Recovery survey sent to the customer: waiting for the answer.');
    expect(pending).not.toContain('new score');
  });

  it('an open case’s page leaves the first contact unticked and says why it cannot be resolved yet, in each language', async () => {
    // Prepare: an open case, and the same case in progress.
    const found: CaseBody = {
      id: 43,
      number: null,
      transaction_id: null,
      journey: { id: 1, slug: 'visit' },
      store: 7,
      employee: 8,
      customer: { id: 9, name: 'Ana' },
      score: 2,
      comment: 'Demorou',
      answered_at: '2026-03-05T15:04:00Z',
      status: 'open',
      owner: null,
      opened_at: '2026-03-05T15:05:00Z',
      due_at: '2026-03-06T15:05:00Z',
      overdue: false,
      first_contact_at: null,
      closed_at: null,
      root_cause: null,
      notes: [],
      history: [],
      recovery: null,
      version: 1,
    };
    const show = async (locale: Locale, status: CaseBody['status']) =>
      (
        await casesPage({
          frame: async () => casesFrameOf({ name: 'Aurora', locale, delivery: {}, journeys: [JOURNEY] } as unknown as Settings),
          list: async () => ({ body: { data: [], next_cursor: null }, shownCustomers: [] }),
          get: async () => ({ ...found, status }),
          analysis: async () => null,
          revealContact: async () => {
            throw new Error('not revealed');
          },
          candidates: async () => [],
          storeNames: async () => new Map(),
          storeChoices: async () => undefined,
          employeeNames: async () => new Map(),
          recordReads: async () => undefined,
        }).showCase({ tenantId: 1, user: USER, base: '/stage', requestId: 'r', query: {}, id: '43' })
      ).html!;

    for (const [locale, why] of [
      ['pt-BR', 'Um caso aberto é resolvido depois do primeiro contato'],
      ['es', 'Un caso abierto se resuelve después del primer contacto'],
      ['en', 'An open case is resolved after the first contact'],
    ] as const) {
      // Act
      const [open, inProgress] = [await show(locale, 'open'), await show(locale, 'in_progress')];
      // Assess: the box unticked; no root cause asked where the case cannot be resolved, and the reason said.
      expect(open).toContain('<input id="c-first" name="first_contact" type="checkbox" value="yes"><label for="c-first">');
      expect(open).toContain('<option value="in_progress"');
      expect(open).not.toContain('<option value="resolved"');
      expect(open).not.toContain('id="c-root"');
      expect(open).toContain(why);
      expect(inProgress).toContain('<option value="resolved"');
      expect(inProgress).toContain('id="c-root"');
      expect(inProgress).not.toContain(why);
    }
  });

  it('the case page shows its answer’s sentiment and themes, each theme opening the inbox filtered by it', async () => {
    // Prepare: a detractor's case whose comment was analysed: negative, about the queue and a theme of the tenant's own.
    const found = {
      id: 42,
      number: null,
      transaction_id: null,
      journey: { id: 1, slug: 'visit' },
      store: 7,
      employee: 8,
      customer: { id: 9, name: 'Ana' },
      score: 2,
      comment: 'A fila estava enorme',
      answered_at: '2026-03-05T15:04:00Z',
      status: 'open',
      owner: null,
      opened_at: '2026-03-05T15:05:00Z',
      due_at: '2026-03-06T15:05:00Z',
      overdue: false,
      first_contact_at: null,
      closed_at: null,
      root_cause: null,
      notes: [],
      history: [],
      recovery: null,
      version: 1,
    } satisfies CaseBody;
    let analysed: ShownAnalysis | null = { sentiment: 'negative', themes: ['wait', 'own'] };
    const own = { slug: 'own', name: { 'pt-BR': HOSTILE, es: HOSTILE, en: HOSTILE }, keywords: { 'pt-BR': [], es: [], en: [] } };
    const settings = (locale: Locale) =>
      ({ name: 'Aurora', locale, delivery: {}, journeys: [JOURNEY], themes: [...DEFAULT_THEMES, own] }) as unknown as Settings;
    const show = async (locale: Locale, comment: string | null = found.comment) =>
      (
        await casesPage({
          frame: async () => casesFrameOf(settings(locale)),
          list: async () => ({ body: { data: [], next_cursor: null }, shownCustomers: [] }),
          get: async () => ({ ...found, comment }),
          analysis: async () => analysed,
          revealContact: async () => {
            throw new Error('not revealed');
          },
          candidates: async () => [],
          storeNames: async () => new Map(),
          storeChoices: async () => undefined,
          employeeNames: async () => new Map(),
          recordReads: async () => undefined,
        }).showCase({ tenantId: 1, user: USER, base: '/stage', requestId: 'r', query: {}, id: '42' })
      ).html!;

    // Act, Assess: in each language, the sentiment and the themes' names, linked to the inbox of the theme.
    for (const [locale, sentiment, queue] of [
      ['pt-BR', 'Sentimento: Negativo', 'Espera'],
      ['es', 'Sentimiento: Negativo', 'Espera'],
      ['en', 'Sentiment: Negative', 'Waiting'],
    ] as const) {
      const page = await show(locale);
      expect(page).toContain(`<span class="sentiment sentiment-negative">${sentiment}</span>`);
      expect(page).toContain(`<li><a href="/stage/app/answers?journey=visit&amp;theme=wait">${queue}</a></li>`);
      expect(page).toContain(`<li><a href="/stage/app/answers?journey=visit&amp;theme=own">${ESCAPED}</a></li>`);
      expectEscaped(page);
    }
    // Not analysed yet, or the comment gone (erased): no chips.
    expect(await show('en', null)).not.toContain('class="analysis"');
    analysed = null;
    expect(await show('en')).not.toContain('class="analysis"');
  });

  it('the sign-in page escapes what was typed and where it goes next', () => {
    const page = signInPage({ base: '', next: `/app/cases?x=${HOSTILE}`, locale: 'pt-BR', problem: 'refused', email: HOSTILE });
    expectEscaped(page);
    expect(page).toContain('E-mail ou senha incorretos.');
  });

  it('the survey page escapes the brand and the comment, and drops a logo that is not https', () => {
    const rendered = surveyPage({
      locale: 'en',
      brand: { name: HOSTILE, colour: 'red;}x-hostile{display:none', logoUrl: 'javascript:alert(1)' },
      token: 'abc',
      customerFirstName: HOSTILE,
      question: { field: 'score', legend: HOSTILE, indicator: 'nps', chosen: undefined, optional: false },
      followUps: [],
      classes: [],
      comment: HOSTILE,
      problems: [HOSTILE],
    });
    expectEscaped(rendered.html);
    expect(rendered.html).not.toContain('javascript:');
    expect(rendered.html).not.toContain('x-hostile');
    expect(rendered.html).toContain('Send answer');
  });
});

describe("the workspace in the tenant's language, time zone and brand (issue 46)", () => {
  const answer = (over: Partial<AnswerBody> = {}): AnswerBody => ({
    id: 1,
    transaction_id: null,
    answered_at: '2026-03-05T15:04:00Z',
    journey: { id: 1, slug: 'visit', indicator: 'csat5Stars' },
    store: 7,
    employee: 8,
    customer: { id: 9, name: 'Ana' },
    channel: 'ura',
    score: 5,
    bucket: 'high',
    comment: null,
    classes: [],
    sentiment: null,
    themes: null,
    aspects: null,
    ...over,
  });
  const answers = (settings: Pick<Settings, 'journeys' | 'classes' | 'locale' | 'timeZone' | 'brand' | 'themes'>, shown = answer()) =>
    answersPage({
      settings: async () => settings,
      listAnswers: async () => ({ body: { data: [shown], limit: 20, next_cursor: null }, shownCustomers: [9], csv: () => '' }),
      storeNames: async () => new Map([[7, 'Loja Paulista']]),
      storeChoices: async () =>
        new Map([
          [7, 'Loja Paulista'],
          [3, 'Loja Augusta'],
        ]),
      employeeChoices: async () => new Map(),
      employeeNames: async () => new Map([[8, 'Bia']]),
      recordReads: async () => undefined,
      exports: { find: async () => undefined },
    }).showAnswers({ tenantId: 1, user: USER, base: '', requestId: 'r', query: { store: '7' } });
  const STARS = { ...JOURNEY, name: 'Visita', indicator: 'csat5Stars' } as JourneyConfig;

  it("the answers page writes a time in the tenant's zone and the locale's way, naming the zone", async () => {
    const pt = (await answers({ journeys: [STARS], classes: [], locale: 'pt-BR', timeZone: 'America/Sao_Paulo' })).html!;
    expect(pt).toContain('<time datetime="2026-03-05T15:04:00Z">05/03/2026, 12:04 BRT</time>');
    const es = (await answers({ journeys: [STARS], classes: [], locale: 'es', timeZone: 'Europe/Madrid' })).html!;
    expect(es).toContain('05/03/2026, 16:04 CET');
    expect(es).not.toContain('UTC');
  });

  it('the answers page names the scale and the channel in words, offers the stores by name, and shows the brand', async () => {
    const brand = { name: 'Café Aurora', logo: LOGO };
    const pt = (await answers({ journeys: [STARS], classes: [], locale: 'pt-BR', brand })).html!;
    expect(pt).toContain('Estrelas (1 a 5)');
    expect(pt).toContain('ligação (URA)');
    expect(pt).not.toMatch(/csat5Stars|CSAT5STARS|· ura ·/);
    expect(pt).toMatch(
      /<select id="f-store" name="store"><option value="">Todas as lojas<\/option><option value="3">Loja Augusta<\/option><option value="7" selected>Loja Paulista<\/option><\/select>/,
    );
    expect(pt).toContain('<span>Café Aurora</span>');
    expect(pt).toContain('src="/brand/logos/abc.png"');
    const es = (await answers({ journeys: [STARS], classes: [], locale: 'es', brand })).html!;
    for (const word of ['<html lang="es">', 'Estrellas (1 a 5)', 'llamada (IVR)', 'Todas las tiendas', 'Café Aurora'])
      expect(es).toContain(word);
  });

  it("the answers page shows a comment's sentiment and its themes as links to their answers, and filters by both", async () => {
    const analysed = answer({ comment: 'A fila estava enorme', sentiment: 'negative', themes: ['wait', 'payment'] });
    const pt = (await answers({ journeys: [STARS], classes: [], locale: 'pt-BR' }, analysed)).html!;
    expect(pt).toContain('<span class="sentiment sentiment-negative">Sentimento: Negativo</span>');
    expect(pt).toContain('<a href="/app/answers?theme=wait">Espera</a>');
    expect(pt).toContain('<a href="/app/answers?theme=payment">Pagamento</a>');
    expect(pt).toMatch(
      /<select id="f-theme" name="theme"><option value="" selected>Todos os temas<\/option><option value="wait">Espera<\/option>/,
    );
    expect(pt).toContain('<option value="mixed">Misto</option>');
    const es = (await answers({ journeys: [STARS], classes: [], locale: 'es' }, analysed)).html!;
    for (const word of ['Sentimiento: Negativo', '>Pago</a>', 'Todos los temas']) expect(es).toContain(word);
    // Before its analysis, or without a comment: no label, no chips.
    expect((await answers({ journeys: [STARS], classes: [], locale: 'pt-BR' })).html).not.toContain('class="sentiment');
    // A tenant's own themes: their names on the chips and in the filter, in the tenant's language.
    const parking = {
      slug: 'parking',
      name: { 'pt-BR': 'Estacionamento', es: 'Aparcamiento', en: 'Parking' },
      keywords: { 'pt-BR': ['vaga'], es: [], en: [] },
    };
    const own = (
      await answers(
        { journeys: [STARS], classes: [], locale: 'es', themes: [parking] },
        answer({ comment: 'Sin vagas', sentiment: 'negative', themes: ['parking'] }),
      )
    ).html!;
    expect(own).toContain('<a href="/app/answers?theme=parking">Aparcamiento</a>');
    expect(own).toMatch(
      /<select id="f-theme" name="theme"><option value="" selected>Todos los temas<\/option><option value="parking">Aparcamiento<\/option><\/select>/,
    );
  });

  it('the results page has a Themes section in the report’s order, each theme linking to its answers', async () => {
    const pt = (await results('pt-BR')).html!;
    expect(pt).toContain('<h2 id="themes-title">Temas</h2>');
    expect(pt).toContain('<a href="/app/answers?journey=visit&amp;theme=wait&amp;from=2026-11-01&amp;to=2026-11-26">Espera</a>');
    expect(pt.indexOf('>Espera</a>')).toBeLessThan(pt.indexOf('>Atendimento</a>'));
    expect(pt).toContain(
      '>Espera</a></th><td data-label="Comentários">8</td><td data-label="Detrator">75%</td><td data-label="Neutro">12,5%</td><td data-label="Promotor">12,5%</td><td data-label="NPS">-62,5</td><td data-label="Variação">-12,5</td>',
    );
    expect((await results('es')).html).toContain('<h2 id="themes-title">Temas</h2>');
    expect((await results('en')).html).toContain('<th scope="col">Comments</th>');
  });

  it('the results page says what moves the score: the item to improve first in words, a table most important first', async () => {
    const section = (page: string) =>
      page.slice(page.indexOf('id="drivers-title"'), page.indexOf('</section>', page.indexOf('id="drivers-title"')));
    const pt = section((await results('pt-BR')).html!);
    expect(pt).toContain('>O que move a nota</h2>');
    expect(pt).toContain('Melhore primeiro: &quot;&gt;&lt;script&gt;');
    expect(pt).not.toContain('<script>');
    expect(pt).toContain(
      '<th scope="row">Rapidez</th><td data-label="Importância">60%</td><td data-label="Desempenho">4,5 de 5</td><td data-label="Além do acaso">Sim</td>',
    );
    expect(pt.indexOf('Rapidez')).toBeLessThan(pt.indexOf('Estacionamento'));
    expect(pt).toContain('Os itens explicam 42% da variação da nota (120 respostas');
    expect(section((await results('es')).html!)).toContain('>Qué mueve la nota</h2>');
    expect(section((await results('en')).html!)).toContain('<td data-label="Beyond chance">No</td>');
  });

  it('the results page ranks stores, an arrow only on a change beyond chance, too few answers apart', async () => {
    const stores = (page: string) => page.slice(page.indexOf('id="stores"'), page.indexOf('id="employees"'));
    const en = stores((await results('en')).html!);
    expect(en).toContain('<td data-label="Rank">1</td>');
    expect(en).toContain('↑ +20, beyond chance');
    expect(en).toContain('+3, within chance');
    expect(en).toContain('Sul (too few answers to rank)');
    expect(en.match(/[↑↓]/g)).toHaveLength(1);
    const pt = stores((await results('pt-BR')).html!);
    expect(pt).toContain('↑ +20, além do acaso');
    expect(pt).toContain('Sul (poucas respostas para classificar)');
    expect(stores((await results('es')).html!)).toContain('-40, dentro del azar');
  });

  it('the results page writes its days the locale’s way and shows the brand', async () => {
    const pt = (await results('pt-BR')).html!;
    expect(pt).toContain('Resumo de 01/11/2026 a 26/11/2026');
    expect(pt).toContain('<span>Café Aurora</span>');
    expect((await results('en')).html).toContain('Summary from 11/01/2026 to 11/26/2026');
  });

  it("the sign-in page speaks the browser's language among pt-BR, es and en, by quality, pt-BR when none matches", () => {
    const signIn = (acceptLanguage: string | undefined) => showSignIn({ base: '', query: {}, acceptLanguage }).html!;
    expect(signIn('es-AR,es;q=0.9,en;q=0.8')).toContain('<html lang="es">');
    expect(signIn('fr-FR,en;q=0.5,es;q=0.9')).toContain('<html lang="es">');
    expect(signIn('en-US')).toContain('Sign in');
    expect(signIn('de-DE,fr;q=0.8')).toContain('<html lang="pt-BR">');
    expect(signIn(undefined)).toContain('Entrar');
  });

  it('describes each page in its language for search results and link previews: the sign-in and the survey page', () => {
    const described = (page: string) => /<meta name="description" content="([^"]+)">/.exec(page)?.[1];
    const signIn = (acceptLanguage: string) => showSignIn({ base: '', query: {}, acceptLanguage }).html!;
    const survey = (locale: Locale) =>
      surveyPage({
        locale,
        brand: { name: 'Loja' },
        token: 'abc',
        customerFirstName: 'Ana',
        question: { field: 'score', legend: 'Nota', indicator: 'nps', chosen: undefined, optional: false },
        followUps: [],
        classes: [],
        comment: '',
        problems: [],
      }).html;
    expect(described(signIn('pt-BR'))).toBe('Respostas, resultados e casos das pesquisas de satisfação dos seus clientes.');
    expect(described(signIn('en'))).toBe('Your customers&#39; satisfaction survey answers, results and cases.');
    expect(described(survey('es'))).toBe('Su opinión sobre la atención: responder solo le tomará unos segundos.');
    expect(described(survey('pt-BR'))).toBe('Sua opinião sobre o atendimento: responder leva só alguns segundos.');
  });

  it('the General page offers each language in its own words and every IANA zone, the current one selected', async () => {
    const config = { name: 'Café Aurora', locale: 'es', timeZone: 'America/Bogota' } as ConfigDocument;
    const ports = {
      settings: async () => ({ locale: 'es' as const, timeZone: 'America/Bogota', delivery: {}, brand: { name: 'Café Aurora' } }),
      readConfig: async () => ({ config, version: 4 }),
      replaceConfig: async () => ({ version: 5, changes: [] }),
    };
    const page = (await adminGeneralPage(ports).showGeneral({ tenantId: 1, user: ADMIN, base: '', query: {}, form: new URLSearchParams() }))
      .html!;
    expect(page).toContain('<html lang="es">');
    expect(page).toContain('<option value="pt-BR" lang="pt-BR">Português (Brasil)</option>');
    expect(page).toContain('<option value="es" lang="es" selected>Español</option>');
    expect(page).toContain('<option value="America/Bogota" selected>America/Bogota</option>');
    expect(page.match(/<option value="[A-Z][^"]*\/[^"]*"/g)!.length).toBeGreaterThan(300);
    expect(page).toContain('<input type="hidden" name="etag" value="4">');
  });

  it('the users page takes a mobile for the WhatsApp alerts: named in the tenant’s language when wrong, stored in E.164', async () => {
    const settings = { locale: 'es' as const, timeZone: 'UTC', delivery: { email: { from: 'p@aurora.test' } }, brand: { name: 'Aurora' } };
    const access = memoryAccess();
    await access.insertUser(1, ADMIN);
    const users = tenantUsers({ users: access, directory: memorySignIn(), audit: memoryAudit(), invitations: memoryInvitations(settings) });
    const page = adminUsersPage({
      settings: async () => settings,
      ...users,
      shownOnce: { sealer: sealer(() => 's'.repeat(32), 'shown-once/v1'), spend: async () => true },
      groups: async () => [],
      storeNames: async () => new Map(),
      storeChoices: async () => new Map(),
    });
    const invite = (phone: string) =>
      page.saveUsers({
        tenantId: 1,
        user: ADMIN,
        base: '',
        query: {},
        form: new URLSearchParams({ action: 'create', email: 'g@aurora.test', scope: 'all', role: 'member', phone }),
      });

    const form = (await page.showUsers({ tenantId: 1, user: ADMIN, base: '', query: {}, form: new URLSearchParams() })).html!;
    const wrong = await invite('12');
    const right = await invite('(11) 98888-7777');

    expect(form).toContain('<label for="u-phone">Móvil (alertas por WhatsApp, opcional)</label>');
    expect(form).toMatch(/<input id="u-phone" name="phone" value="" type="tel"/);
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('id="u-phone-error"');
    expect(wrong.html).toContain('no es un número de teléfono');
    expect(wrong.html).toContain('value="12"');
    expect(await access.findUserByName(1, 'g@aurora.test')).toMatchObject({ phone: '+5511988887777' });
    expect(right.status).toBe(303);
  });

  it('the users page offers a new invitation to a person who signs in, never to an integration’s token user', async () => {
    const settings = { locale: 'pt-BR' as const, timeZone: 'UTC', delivery: {}, brand: { name: 'Aurora' } };
    const access = memoryAccess();
    await access.insertUser(1, ADMIN);
    await access.insertUser(1, { ...ADMIN, name: 'gerente@aurora.test', role: 'member' });
    await access.insertUser(1, { ...ADMIN, name: 'erp-sync', role: 'member' });
    const page = adminUsersPage({
      settings: async () => settings,
      ...tenantUsers({ users: access, directory: memorySignIn(), audit: memoryAudit(), invitations: memoryInvitations(settings) }),
      shownOnce: { sealer: sealer(() => 's'.repeat(32), 'shown-once/v1'), spend: async () => true },
      groups: async () => [],
      storeNames: async () => new Map(),
      storeChoices: async () => new Map(),
    });
    const shown = (await page.showUsers({ tenantId: 1, user: ADMIN, base: '', query: {}, form: new URLSearchParams() })).html!;
    const resent = [...shown.matchAll(/name="action" value="resend"><input type="hidden" name="name" value="([^"]+)"/g)].map((m) => m[1]);

    expect(resent).toEqual(['gerente@aurora.test']);
    expect(shown).toMatch(/<button type="submit" class="quiet">Enviar o convite de novo/);
  });

  it('the users page sets each person’s digest e-mail through the users service, never an integration’s token user', async () => {
    // Prepare: the admin, a manager who signs in (weekly by default), an integration's token user.
    const settings = { locale: 'es' as const, timeZone: 'UTC', delivery: {}, brand: { name: 'Aurora' } };
    const access = memoryAccess();
    const audit = memoryAudit();
    await access.insertUser(1, ADMIN);
    await access.insertUser(1, { ...ADMIN, name: 'gerente@aurora.test', role: 'member', tokenHash: 'g' });
    await access.insertUser(1, { ...ADMIN, name: 'erp-sync', role: 'member', tokenHash: 'e' });
    const page = adminUsersPage({
      settings: async () => settings,
      ...tenantUsers({ users: access, directory: memorySignIn(), audit, invitations: memoryInvitations(settings) }),
      shownOnce: { sealer: sealer(() => 's'.repeat(32), 'shown-once/v1'), spend: async () => true },
      groups: async () => [],
      storeNames: async () => new Map(),
      storeChoices: async () => new Map(),
    });
    const post = (digest: string) =>
      page.saveUsers({
        tenantId: 1,
        user: ADMIN,
        base: '',
        query: {},
        form: new URLSearchParams({ action: 'digest', name: 'gerente@aurora.test', digest }),
      });
    // Act
    const shown = (await page.showUsers({ tenantId: 1, user: ADMIN, base: '', query: {}, form: new URLSearchParams() })).html!;
    const saved = await post('daily');
    const wrong = await post('monthly');
    // Assess: a select for each person, the current choice selected; the choice saved as the API saves it, and audited.
    const digests = [...shown.matchAll(/name="action" value="digest"><input type="hidden" name="name" value="([^"]+)"/g)].map((m) => m[1]);
    expect(digests.sort()).toEqual([ADMIN.name, 'gerente@aurora.test'].sort());
    expect(shown).toContain('Resumen por correo</label>');
    expect(shown).toContain('<option value="weekly" selected>Semanal</option>');
    expect(saved.status).toBe(303);
    expect(await access.findUserByName(1, 'gerente@aurora.test')).toMatchObject({ digest: 'daily' });
    expect(audit.entries.get(1)?.at(-1)).toMatchObject({ action: 'user.update' });
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('Resumen por correo:');
    expect(await access.findUserByName(1, 'gerente@aurora.test')).toMatchObject({ digest: 'daily' });
  });

  it('the keys page reads an expiry in the tenant’s zone', () => {
    expect(expiryOf('2026-07-01T09:30', 'America/Sao_Paulo')).toBe('2026-07-01T12:30:00.000Z');
    expect(expiryOf('2026-07-01T09:30', 'Europe/Madrid')).toBe('2026-07-01T07:30:00.000Z');
    expect(expiryOf('', 'UTC')).toBeUndefined();
  });
});

describe('the words', () => {
  it('live in shared/i18n only: no word module is left beside the pages', () => {
    expect(readdirSync('shared/workspace').filter((file) => file.endsWith('-text.ts'))).toEqual([]);
  });
});
