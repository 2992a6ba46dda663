import { describe, expect, it } from 'vitest';
import { monthsOf, periodEnding, periodFault, periodProblems } from '../../shared/dates.js';
import { resultsService } from '../../shared/results/service.js';
import type { ResultCounters } from '../../shared/results/ports.js';
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
 * The results page asked for any period its date rule accepts answers within a budget of counter reads, and a date
 * outside it (year 9999: its month after is `+010000-01`, which sorts below `9999-12`) is refused before any read.
 */
const SETTINGS = {
  journeys: [{ id: 1, slug: 'loja', name: 'Loja', indicator: 'nps', classes: [] }],
  classes: [],
} as unknown as Settings;
const USER: UserRecord = { name: 'gerente', scope: 'all', tokenHash: 'h', created_at: '2026-01-01T00:00:00Z' };

function countedPage() {
  const counters = memoryCounters();
  const reads = { count: 0 };
  const counting: ResultCounters = {
    read: (query) => {
      reads.count += 1;
      return counters.read(query);
    },
  };
  const service = resultsService({
    counters: counting,
    settings: async () => SETTINGS,
    stores: { getMany: async () => [] },
    employees: { getMany: async () => [] },
  });
  const show = resultsPage({
    settings: async () => SETTINGS,
    report: service.report,
    drivers: service.drivers,
    themes: noThemes,
    examples: async () => new Map(),
  });
  const page = (query: Record<string, string>) =>
    show({ tenantId: 7, user: USER, base: '', query: { journey: 'loja', ...query }, today: '2026-05-31' });
  return { page, reads };
}

describe('the date rule', () => {
  it('takes two calendar days within 1900-2100, in order, at most 400 days apart, both included', () => {
    expect(periodFault('1900-01-01', '1901-02-04')).toBeUndefined();
    expect(periodFault('2099-11-27', '2100-12-31')).toBeUndefined();
    expect(periodFault('2026-01-01', '2026-01-01')).toBeUndefined();
    expect(
      ['9999-12-31', '+010000-01-01', '2101-01-01', '1899-12-31', '2026-02-30', '2026-1-1', ''].map((to) => periodFault('2026-01-01', to)),
    ).toEqual(Array(7).fill('date'));
    expect(periodFault('2026-01-02', '2026-01-01')).toBe('order');
    expect(periodFault('1900-01-01', '1901-02-05')).toBe('span');
    expect(periodFault('2026-01-01', '2026-04-02', 92)).toBeUndefined();
    expect(periodFault('2026-01-01', '2026-04-03', 92)).toBe('span');
  });

  it('names the fields at fault as the API answers them', () => {
    expect(periodProblems('2026-01-01', '9999-12-31')).toEqual([
      { path: 'to', message: 'is not a valid calendar date between 1900 and 2100' },
    ]);
    expect(periodProblems('2026-01-02', '2026-01-01', { paths: ['start_date', 'end_date'] })).toEqual([
      { path: 'end_date', message: 'must not be before start_date' },
    ]);
    expect(periodProblems('2025-01-01', '2026-12-31')).toEqual([{ path: 'to', message: 'at most 400 days after from, both included' }]);
  });

  it('counts the months of a period from its ends, across years and up to the last the calendar holds', () => {
    expect(monthsOf('2099-11-27', '2100-12-31')).toEqual([
      '2099-11',
      '2099-12',
      ...Array.from({ length: 12 }, (_, i) => `2100-${String(i + 1).padStart(2, '0')}`),
    ]);
    expect(monthsOf('1900-01-01', '2100-12-31')).toHaveLength(201 * 12);
    expect(monthsOf('2026-06-01', '2026-05-31')).toEqual([]);
  });

  it('starts a default period no earlier than the calendar does', () => {
    expect(periodEnding('2026-05-31', 30)).toBe('2026-05-02');
    expect(periodEnding('1900-01-05', 30)).toBe('1900-01-01');
    expect(periodEnding('9999-12-31', 30)).toBe('9999-12-31');
  });
});

describe('the results page over the date rule', () => {
  // Six reports of at most 15 month partitions each (13 months read by day, two years by month), one prefix each.
  const BUDGET = 6 * 15;

  it.each([
    ['the first days it accepts', { from: '1900-01-01', to: '1901-02-04' }],
    ['the last days it accepts', { from: '2099-11-27', to: '2100-12-31' }],
    ['the last day alone', { to: '2100-12-31' }],
  ])('answers %s within its budget of counter reads', async (_name, query) => {
    const { page, reads } = countedPage();
    const answer = await page(query);
    expect(answer.status).toBe(200);
    expect(reads.count).toBeGreaterThan(0);
    expect(reads.count).toBeLessThanOrEqual(BUDGET);
  });

  it.each([
    [{ to: '9999-12-31' }],
    [{ from: '2100-12-31', to: '2101-01-01' }],
    [{ from: '1899-12-31', to: '1900-01-01' }],
    [{ to: '+010000-01-01' }],
  ])('refuses %j with the page saying the dates are outside the years it takes, reading nothing', async (query) => {
    const { page, reads } = countedPage();
    const answer = await page(query);
    expect(answer.status).toBe(400);
    expect(answer.html).toContain('entre 1900 e 2100');
    expect(reads.count).toBe(0);
  });
});
