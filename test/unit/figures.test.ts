import { describe, expect, it } from 'vitest';
import type { Employee } from '../../shared/employees/schema.js';
import { addDays } from '../../shared/dates.js';
import type { Locale } from '../../shared/locale.js';
import { caseDeltas, medianRange, type CaseProgress } from '../../shared/results/case-tally.js';
import { periodKeys } from '../../shared/results/groupings.js';
import { casesOf } from '../../shared/results/report.js';
import { resultsService } from '../../shared/results/service.js';
import { answerTally, sentTally, type Counted } from '../../shared/results/tally.js';
import type { Store } from '../../shared/stores/schema.js';
import type { Settings } from '../../shared/tenants/config-schema.js';
import type { UserRecord } from '../../shared/access/ports.js';
import { resultsPage } from '../../shared/workspace/results-page.js';
import { memoryCounters } from '../support/memory.js';

/** A journey whose comments name no theme. */
const noThemes = async (_tenant: number, query: { journey: string; from: string; to: string }) => ({
  journey: { id: 1, slug: query.journey, indicator: 'nps' as const },
  from: query.from,
  to: query.to,
  group_by: 'theme' as const,
  previous: { from: query.from, to: query.to },
  data: [],
});

/**
 * The figures of issue 46 §3, from the counters the answer, send and case paths write to the page a manager reads:
 * an item's row is its own, the on-time share is of the cases whose deadline is decided, the median wait is no finer
 * than its histogram, and the trend reads well with one point, a week and a year.
 */

const TENANT = 7;
const WHERE: Counted = { journeyId: 1, storeId: 1, employeeId: 1 };
const settingsIn = (locale: Locale) =>
  ({
    locale,
    journeys: [{ id: 1, slug: 'loja', name: 'Loja', indicator: 'nps', classes: [1, 2], minSample: 1 }],
    classes: [
      { id: 1, label: 'Atendimento', type: 'csat' },
      { id: 2, label: 'Limpeza', type: 'csat' },
    ],
  }) as unknown as Settings;
const USER: UserRecord = { name: 'gerente@demo.local', scope: 'all', tokenHash: 'h', created_at: '2026-01-01T00:00:00Z' };

/** The results page over counters in memory, fed by the same tallies the answer, send and case paths write. */
function world(locale: Locale = 'pt-BR') {
  const counters = memoryCounters();
  const settings = settingsIn(locale);
  const service = resultsService({
    counters,
    settings: async () => settings,
    stores: { getMany: async () => [{ id: 1, trade_name: 'Loja Centro' } as Store] },
    employees: { getMany: async () => [{ id: 1, name: 'Ana', groups: [1] } as Employee] },
  });
  const page = resultsPage({
    settings: async () => settings,
    report: service.report,
    drivers: service.drivers,
    themes: noThemes,
    examples: async () => new Map(),
  });
  return {
    /** A survey sent on `day` (asking the journey's classes), answered that day with `items` rated unless null. */
    survey(day: string, score: number | null, items: { classId: number; score: number }[] = []) {
      counters.add(TENANT, { journeyId: 1, deltas: sentTally(WHERE, new Date(`${day}T09:00:00Z`), [1, 2]) });
      if (score === null) return;
      const answer = { indicator: 'nps' as const, score, answeredAt: `${day}T12:00:00Z`, sentOn: day };
      const rated = items.map((item) => ({ ...item, indicator: 'csat' as const }));
      counters.add(TENANT, { journeyId: 1, deltas: answerTally(WHERE, { ...answer, items: rated }) });
    },
    /** A case through its states, each write's deltas counted. */
    caseThrough(...states: CaseProgress[]) {
      states.forEach((state, i) => counters.add(TENANT, { journeyId: 1, deltas: caseDeltas(states[i - 1], state) }));
    },
    report: (query: Record<string, string>) =>
      service.report(
        TENANT,
        { journey: 'loja', from: '2026-11-01', to: '2026-11-26', group_by: 'journey', ...query },
        Promise.resolve(USER),
      ),
    show: async (query: Record<string, string> = {}) =>
      (
        await page({
          tenantId: TENANT,
          user: USER,
          base: '',
          query: { from: '2026-11-01', to: '2026-11-26', ...query },
          today: '2026-11-26',
        })
      ).html!,
  };
}

const text = (fragment: string) =>
  fragment
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
/** A table's body rows, each its cells' text. */
function rowsOf(page: string, id: string): string[][] {
  const table = new RegExp(`<table id="${id}"[^>]*>[\\s\\S]*?<tbody>([\\s\\S]*?)</tbody>`).exec(page)?.[1] ?? '';
  return [...table.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => text(c[1]!)),
  );
}
const trendOf = (page: string): { labels: string[]; values: (number | null)[] } =>
  JSON.parse(/<script type="application\/json" id="trend-data">([\s\S]*?)<\/script>/.exec(page)![1]!);
const captionOf = (page: string) => text(/<figcaption id="trend-caption">([\s\S]*?)<\/figcaption>/.exec(page)![1]!);

describe('a rated item’s row', () => {
  it('counts the answers that rated the item, over the surveys that asked it', async () => {
    const w = world();
    // Three surveys asked both items: two answered, one rating only Atendimento, one rating neither; one never answered.
    w.survey('2026-11-20', 10, [{ classId: 1, score: 5 }]);
    w.survey('2026-11-21', 9);
    w.survey('2026-11-22', null);
    const classes = (await w.report({ group_by: 'class' })).data;
    expect(classes.map((row) => [row.label, row.responses, row.asked, row.asked_response_rate])).toEqual([
      ['Atendimento', 1, 3, 0.333],
      ['Limpeza', 0, 3, 0],
    ]);
    // The survey's own figures keep their meaning, on the journey's row and, as before, on an item's.
    expect(classes[1]).toMatchObject({ sent: 3, response_rate: 0.667 });
    expect((await w.report({})).data[0]).toMatchObject({
      responses: 2,
      sent: 3,
      asked: 3,
      response_rate: 0.667,
      asked_response_rate: 0.667,
    });
    // The page: "0 answers of 3 asked, 0%", never the survey's 66.7%.
    expect(rowsOf(await w.show(), 'classes')).toEqual([
      ['Atendimento', '5', '1', '3', '33,3%'],
      ['Limpeza (amostra pequena)', '–', '0', '3', '0%'],
    ]);
  });

  it('takes back an item’s response when a correction no longer rates it', () => {
    const answer = { indicator: 'nps' as const, score: 9, answeredAt: '2026-11-20T12:00:00Z', sentOn: '2026-11-20' };
    const rated = { ...answer, items: [{ classId: 1, indicator: 'csat' as const, score: 4 }] };
    const whole = answerTally(WHERE, { ...answer, items: [] }, rated).find((d) => d.dimension === 'all' && d.day === '2026-11-20');
    expect(whole?.add).toMatchObject({ c1n: -1, c1r: -1 });
    expect(whole?.add.r).toBeUndefined();
  });
});

describe('the on-time share', () => {
  const opened: CaseProgress = {
    journeyId: 1,
    storeId: 1,
    employeeId: 1,
    openedAt: '2026-11-20T10:00:00.000Z',
    dueAt: '2026-11-21T10:00:00.000Z',
    status: 'open',
    firstContactAt: null,
    closedAt: null,
    overdue: false,
  };
  const contacted = { ...opened, status: 'in_progress', firstContactAt: '2026-11-20T10:03:00.000Z' };
  const resolvedAt = (at: string) => ({ ...contacted, status: 'resolved', closedAt: at });
  const overdue = { ...contacted, overdue: true };

  it('counts only the cases resolved or past their deadline, and says over how many', async () => {
    const w = world();
    w.survey('2026-11-20', 2);
    // A case opened minutes ago: no share yet, never "0%".
    w.caseThrough(opened);
    expect((await w.report({})).data[0]!.cases).toMatchObject({ opened: 1, deadline_decided: 0, resolved_in_time: 0, on_time_rate: null });
    expect(rowsOf(await w.show(), 'store-cases')[0]![3]).toBe('ainda no prazo');
    // Resolved in time; overdue then resolved (missed once, not twice); closed unresolved; one more still open.
    w.caseThrough(opened, contacted, resolvedAt('2026-11-21T09:00:00.000Z'));
    w.caseThrough(opened, contacted, overdue, { ...overdue, status: 'resolved', closedAt: '2026-11-22T09:00:00.000Z' });
    w.caseThrough(opened, { ...opened, status: 'closed_unresolved', closedAt: '2026-11-20T11:00:00.000Z' });
    w.caseThrough(opened, contacted, resolvedAt('2026-11-21T10:01:00.000Z'));
    const cases = (await w.report({})).data[0]!.cases;
    expect(cases).toMatchObject({ opened: 5, resolved: 3, deadline_decided: 4, resolved_in_time: 1, on_time_rate: 0.25 });
    // The share of the cases opened stays in the API, as it was.
    expect(cases.resolved_within_deadline).toBe(0.2);
    expect(rowsOf(await w.show(), 'store-cases')[0]![3]).toBe('25% (1 de 4)');
    expect(rowsOf(await world('es').show(), 'store-cases')).toEqual([['Ningún caso abierto en el período.']]);
  });
});

describe('the median wait to first contact', () => {
  it('is the range its histogram knows, never finer', () => {
    expect(medianRange({})).toBeNull();
    // One case contacted after 3 minutes: up to 15 (interpolating made it "8 min").
    expect(medianRange({ ft0: 1 })).toEqual({ low: 0, high: 15 });
    // 10 and 40 minutes: the middle lies anywhere from the first bucket to the third.
    expect(medianRange({ ft0: 1, ft2: 1 })).toEqual({ low: 0, high: 60 });
    expect(medianRange({ ft0: 1, ft2: 1, ft7: 1 })).toEqual({ low: 30, high: 60 });
    expect(medianRange({ ft10: 3 })).toEqual({ low: 10080, high: null });
    expect(casesOf({ co: 1, fc: 1, ft0: 1 }).first_contact_median_range).toEqual({ low: 0, high: 15 });
  });

  it('reads as its range on the page', async () => {
    const w = world();
    w.survey('2026-11-20', 2);
    const opened: CaseProgress = {
      ...WHERE,
      openedAt: '2026-11-20T10:00:00.000Z',
      dueAt: '2026-11-21T10:00:00.000Z',
      status: 'open',
      firstContactAt: null,
      closedAt: null,
      overdue: false,
    };
    w.caseThrough(opened, { ...opened, status: 'in_progress', firstContactAt: '2026-11-20T10:03:00.000Z' });
    expect(rowsOf(await w.show(), 'store-cases')[0]![2]).toBe('até 15 min');
    w.caseThrough(opened, { ...opened, status: 'in_progress', firstContactAt: '2026-11-20T12:00:00.000Z' });
    w.caseThrough(opened, { ...opened, status: 'in_progress', firstContactAt: '2026-11-21T10:00:00.000Z' });
    expect(rowsOf(await w.show(), 'store-cases')[0]![2]).toBe('1 h a 2 h');
    expect(rowsOf(await w.show(), 'employee-cases')[0]![2]).toBe('1 h a 2 h');
  });
});

describe('the trend', () => {
  it('with one day of answers is one point, said in words', async () => {
    const w = world();
    w.survey('2026-11-20', 10);
    const page = await w.show();
    expect(trendOf(page)).toMatchObject({ labels: ['20 de nov.'], values: [100] });
    expect(captionOf(page)).toBe('NPS por dia: só um dia com respostas, 20 de nov.: 100.');
    expect(page).toMatch(/<canvas id="trend" role="img" aria-labelledby="trend-title trend-caption">/);
  });

  it('with a week of answers spans that week, and sums it up: lowest, highest, latest', async () => {
    const w = world('es');
    for (let i = 0; i < 7; i++) w.survey(addDays('2026-11-16', i), i === 3 ? 0 : 10);
    const page = await w.show();
    const trend = trendOf(page);
    expect(trend.labels).toHaveLength(7);
    expect(trend.values).toEqual([100, 100, 100, -100, 100, 100, 100]);
    expect(captionOf(page)).toBe(
      'NPS por día, 7 días con respuestas, del 16 nov al 22 nov: mínimo -100 (19 nov), máximo 100 (16 nov), último 100.',
    );
    // The same figures as a table, for whoever does not see the chart.
    expect(rowsOf(page, 'trend-table')).toHaveLength(7);
    expect(rowsOf(page, 'trend-table')[3]).toEqual(['19 nov', '-100', '1']);
  });

  it('over a year reads by day, week or month, as the user picks', async () => {
    const w = world('en');
    for (let i = 0; i < 365; i++) w.survey(addDays('2025-11-27', i), 9);
    const year = { from: '2025-11-27', to: '2026-11-26' };
    const byDay = await w.show({ ...year, by: 'day' });
    expect(trendOf(byDay).labels).toHaveLength(365);
    expect(captionOf(byDay)).toMatch(/^NPS by day, 365 days with answers, from Nov 27, 2025 to Nov 26, 2026: lowest 100/);
    expect(trendOf(await w.show({ ...year, by: 'week' })).labels).toHaveLength(53);
    const byMonth = await w.show({ ...year, by: 'month' });
    expect(trendOf(byMonth).labels).toHaveLength(13);
    expect(trendOf(byMonth).labels[0]).toBe('Nov 2025');
    expect(captionOf(byMonth)).toMatch(/^NPS by month, 13 months with answers/);
    // A year defaults to weeks; the form offers the three.
    expect(trendOf(await w.show(year)).labels).toHaveLength(53);
    expect(byDay).toMatch(
      /<select id="by" name="by"><option value="day" selected>Day<\/option><option value="week">Week<\/option><option value="month">Month<\/option><\/select>/,
    );
  });

  it('names every period of a time grouping between two days', () => {
    expect(periodKeys('day', '2026-02-27', '2026-03-01')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(periodKeys('week', '2026-11-04', '2026-11-16')).toEqual(['2026-11-02', '2026-11-09', '2026-11-16']);
    expect(periodKeys('month', '2025-12-31', '2026-02-01')).toEqual(['2025-12-01', '2026-01-01', '2026-02-01']);
  });
});

describe('the results tables on a phone', () => {
  it('label every cell with its column, for the stacked layout', async () => {
    const w = world();
    w.survey('2026-11-20', 10, [{ classId: 1, score: 5 }]);
    const page = await w.show();
    for (const id of ['stores', 'employees', 'classes', 'store-cases'])
      expect(page, id).toMatch(new RegExp(`<table id="${id}" class="cards">`));
    expect(page).toContain('<td data-label="Respostas">1</td>');
    expect(page).toContain('<td data-label="Perguntado">1</td>');
  });
});
