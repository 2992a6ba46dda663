import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../shared/access/ports.js';
import type { StoredAnswer } from '../../shared/answers/ports.js';
import { addDays, daysOf } from '../../shared/dates.js';
import { countChange } from '../../shared/results/ranking.js';
import type { Settings } from '../../shared/tenants/config-schema.js';
import type { Sentiment } from '../../shared/themes/ports.js';
import { intervalsOf, themeReport } from '../../shared/themes/report.js';
import { DEFAULT_THEMES } from '../../shared/themes/themes.js';
import { memoryThemes } from '../support/memory.js';

const TENANT = 3;
const SETTINGS = {
  locale: 'pt-BR',
  journeys: [{ id: 1, slug: 'visit', indicator: 'nps' }],
  themes: DEFAULT_THEMES,
} as unknown as Settings;
const USER: Promise<UserRecord> = Promise.resolve({ name: 'gerente', scope: 'all', tokenHash: 'h', created_at: '2026-01-01T00:00:00Z' });

/** A seeded generator (mulberry32): the same answers at every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Generated {
  day: string;
  storeId: number;
  aspects: { theme: string; sentiment: Sentiment }[];
}

/**
 * 140 days of analysed answers (2026-07-01 to 2026-11-17) in two stores: delivery complaints rise tenfold in the last
 * 28 days, staff's stay as few; mentions of every polarity, one to three themes a comment.
 */
function generated() {
  const next = random(60);
  const themes = memoryThemes();
  const answers: Generated[] = [];
  const polarities: Sentiment[] = ['negative', 'positive', 'neutral', 'mixed'];
  let id = 0;
  for (const day of daysOf('2026-07-01', '2026-11-17')) {
    const late = day >= '2026-10-21';
    for (let n = 0; n < 3; n++) {
      const aspects: Generated['aspects'] = [];
      for (const theme of ['delivery', 'staff', 'price', 'wait']) {
        if (next() > 0.35) continue;
        const sentiment = theme === 'delivery' && late && next() < 0.9 ? 'negative' : polarities[Math.floor(next() * 4)]!;
        aspects.push({ theme, sentiment: theme === 'delivery' && !late && sentiment === 'negative' ? 'positive' : sentiment });
      }
      if (!aspects.length) continue;
      const score = Math.floor(next() * 11);
      const storeId = 1 + Math.floor(next() * 2);
      answers.push({ day, storeId, aspects });
      themes.add(
        TENANT,
        {
          id: ++id,
          transactionId: null,
          answeredAt: `${day}T12:00:00Z`,
          journeyId: 1,
          storeId,
          employeeId: 1,
          customerId: 1,
          customerName: null,
          source: 'api',
          score,
          comment: 'x',
          items: [],
          sentiment: 'neutral',
          themes: aspects.map((a) => a.theme),
          aspects,
        } as StoredAnswer,
        score <= 6 ? 'detractor' : score <= 8 ? 'passive' : 'promoter',
      );
    }
  }
  return { report: themeReport({ counters: themes.counters, settings: async () => SETTINGS }).report, answers };
}

/** The mentions of `theme` counted from the generated answers themselves: a mixed one counts in both. */
function counted(answers: Generated[], theme: string, from: string, to: string, storeId?: number) {
  const mentions = answers
    .filter((a) => a.day >= from && a.day <= to && (storeId === undefined || a.storeId === storeId))
    .flatMap((a) => a.aspects.filter((aspect) => aspect.theme === theme));
  const of = (...sentiments: Sentiment[]) => mentions.filter((m) => sentiments.includes(m.sentiment)).length;
  return { comments: mentions.length, negative: of('negative', 'mixed'), positive: of('positive', 'mixed') };
}

describe('group_by=theme: changes and lines', () => {
  it('each row carries the change of its negative and positive mentions against the period before, beyond chance or not', async () => {
    const { report, answers } = generated();
    const body = await report(TENANT, { journey: 'visit', from: '2026-10-21', to: '2026-11-17' }, USER);
    expect(body.previous).toEqual({ from: '2026-09-23', to: '2026-10-20' });
    for (const row of body.data) {
      const now = counted(answers, row.theme, '2026-10-21', '2026-11-17');
      const before = counted(answers, row.theme, '2026-09-23', '2026-10-20');
      expect(row.negative_change.value, row.theme).toBe(now.negative - before.negative);
      expect(row.positive_change.value, row.theme).toBe(now.positive - before.positive);
      expect(row.negative_change.low).toBeLessThan(row.negative_change.value);
      expect(row.negative_change.high).toBeGreaterThan(row.negative_change.value);
    }
    const delivery = body.data.find((row) => row.theme === 'delivery')!;
    // Delivery's complaints rose beyond chance; the first row is what customers complain about most.
    expect(delivery.negative_change.significant).toBe(true);
    expect(delivery.negative_change.value).toBeGreaterThan(0);
    expect(body.data[0]!.theme).toBe('delivery');
    // Wait's stayed as they were: not beyond chance.
    expect(body.data.find((row) => row.theme === 'wait')!.negative_change.significant).toBe(false);
  });

  it('a count of a few is never beyond chance, a large rise is', () => {
    expect(countChange(5, 2).significant).toBe(false);
    expect(countChange(0, 0)).toEqual({ value: 0, low: -3.8, high: 3.8, significant: false });
    expect(countChange(50, 20).significant).toBe(true);
    expect(countChange(20, 50).significant).toBe(true);
    expect(countChange(20, 50).value).toBe(-30);
  });

  it('interval=week and interval=month: each theme’s line, whose intervals sum to the period’s row', async () => {
    const { report, answers } = generated();
    for (const [interval, from, to] of [
      ['week', '2026-08-26', '2026-11-17'],
      ['month', '2026-07-15', '2026-11-17'],
      ['week', '2026-09-01', '2026-11-17'],
    ] as const) {
      for (const store of [undefined, 2]) {
        const body = await report(TENANT, { journey: 'visit', from, to, interval, ...(store ? { store } : {}) }, USER);
        expect(body.data.length).toBeGreaterThan(0);
        for (const row of body.data) {
          const line = row.intervals!;
          expect(line.map(({ from, to }) => ({ from, to }))).toEqual(intervalsOf(from, to, interval));
          const sum = (name: 'comments' | 'negative' | 'positive') => line.reduce((total, point) => total + point[name], 0);
          expect({ comments: sum('comments'), negative: sum('negative'), positive: sum('positive') }, `${interval} ${row.theme}`).toEqual({
            comments: row.comments,
            negative: row.negative,
            positive: row.positive,
          });
          for (const point of line) {
            const direct = counted(answers, row.theme, point.from, point.to, store);
            expect({ comments: point.comments, negative: point.negative, positive: point.positive }).toEqual(direct);
          }
          // Each whole week's change against the week before, as the period's.
          const last = line.at(-1)!;
          const before = line.at(-2)!;
          if (interval === 'week') expect(last.negative_change).toEqual(countChange(last.negative, before.negative));
          // Months of different lengths are not compared: November so far is not October.
          else expect(last.negative_change).toBeNull();
        }
      }
    }
  });

  it('weeks are counted back from the last day, months are the calendar’s, cut to the period', () => {
    expect(intervalsOf('2026-11-01', '2026-11-17', 'week')).toEqual([
      { from: '2026-11-01', to: '2026-11-03' },
      { from: '2026-11-04', to: '2026-11-10' },
      { from: '2026-11-11', to: '2026-11-17' },
    ]);
    expect(intervalsOf('2026-01-15', '2026-03-10', 'month')).toEqual([
      { from: '2026-01-15', to: '2026-01-31' },
      { from: '2026-02-01', to: '2026-02-28' },
      { from: '2026-03-01', to: '2026-03-10' },
    ]);
    expect(intervalsOf('2026-09-01', addDays('2026-09-01', 83), 'week')).toHaveLength(12);
  });

  it('a line of a shorter first week has no change for it', async () => {
    const { report } = generated();
    const body = await report(TENANT, { journey: 'visit', from: '2026-11-01', to: '2026-11-17', interval: 'week' }, USER);
    for (const row of body.data) {
      expect(row.intervals![0]!.negative_change).toBeNull();
      expect(row.intervals![1]!.negative_change).toBeNull();
      expect(row.intervals![2]!.negative_change).not.toBeNull();
    }
  });

  it('without interval no line is answered', async () => {
    const { report } = generated();
    const body = await report(TENANT, { journey: 'visit', from: '2026-11-01', to: '2026-11-17' }, USER);
    expect(body.data[0]).not.toHaveProperty('intervals');
  });
});
