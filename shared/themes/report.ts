import * as v from 'valibot';
import type { UserRecord } from '../access/ports.js';
import { NPS_BUCKETS, SCALE_BUCKETS } from '../settings/scales.js';
import { addDays, daysIn, monthsOf, periodProblems } from '../dates.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { DEFAULT_LOCALE } from '../locale.js';
import { MAX_SCOPED_STORES, plan } from '../results/service.js';
import { countChange } from '../results/ranking.js';
import type { ResultsQuery } from '../results/schema.js';
import { wholeNumber } from '../schema.js';
import type { JourneyConfig } from '../settings/journeys.js';
import type { Settings } from '../settings/settings.js';
import { INDICATORS, type Indicator } from '../settings/scales.js';
import { regionLimit } from '../regions.js';
import { themesOf, type Theme } from './themes.js';

/** The theme counters a report reads: a journey's, or a store's in a journey. */
export type ThemeDimension = 'journey' | 'storeJourney';

/** A theme counter as stored: its theme, the day (YYYY-MM-DD) or month (YYYY-MM) it counts, and its sums. */
export interface ThemeCounterRow {
  theme: string;
  period: string;
  counts: Record<string, number>;
}

export interface ThemeCounters {
  /** The counters of one dimension's ids over one month (`grain` day: its days) or one year (`grain` month: its months). */
  read(query: {
    tenantId: number;
    dimension: ThemeDimension;
    ids: number[];
    grain: 'day' | 'month';
    partition: string;
  }): Promise<ThemeCounterRow[]>;
}

export interface ThemeReportPorts {
  counters: ThemeCounters;
  settings: (tenantId: number) => Promise<Settings & { themes?: readonly Theme[] }>;
}

/** A change against the period before: its value, the 95% interval of the difference, and whether it excludes zero. */
const ChangeBody = v.object({ value: v.number(), low: v.number(), high: v.number(), significant: v.boolean() });

/** One interval of a theme's line (`interval=week|month`): its days and the theme's mentions in them. */
export const ThemeIntervalBody = v.object({
  from: v.string(),
  to: v.string(),
  comments: wholeNumber,
  negative: wholeNumber,
  positive: wholeNumber,
  /** Negative mentions against the interval before, when both are as long (a count's change: see `negative_change`). */
  negative_change: v.nullable(ChangeBody),
  positive_change: v.nullable(ChangeBody),
});
export type ThemeIntervalBody = v.InferOutput<typeof ThemeIntervalBody>;

export const ThemeRowBody = v.object({
  theme: v.string(),
  /** The theme's name in the tenant's language. */
  name: v.string(),
  /** Comments that mention the theme in the period. */
  comments: wholeNumber,
  /**
   * Mentions of the theme whose polarity is negative, and positive (what the comment says of this theme, not of the
   * visit: a mixed mention counts in both). Comments analysed before mentions had a polarity count in neither.
   */
  negative: wholeNumber,
  positive: wholeNumber,
  /** Negative mentions in the period of the same length before (`previous`): whether complaints of it rose. */
  previous_negative: wholeNumber,
  /** Of those, from detractors, passives and promoters (on a scale other than NPS: low, middle and high scores). */
  detractors: wholeNumber,
  passives: wholeNumber,
  promoters: wholeNumber,
  /** The NPS of the answers that mention it (the scale's average on any other scale); null without comments. */
  score: v.nullable(v.number()),
  /** `score` less its score in the period of the same length before; null when either has no comments. */
  change: v.nullable(v.number()),
  /**
   * `negative` (and `positive`) less the same count in the period before, with the 95% interval of the difference of two
   * Poisson counts (each count's score interval, joined as the results join two intervals) and whether it excludes zero:
   * a rise from 2 to 5 complaints is not beyond chance, from 20 to 50 is.
   */
  negative_change: ChangeBody,
  positive_change: ChangeBody,
  /** With `interval`: the theme's line, every interval of the period in time order (those with no mention too). */
  intervals: v.optional(v.array(ThemeIntervalBody)),
});
export type ThemeRowBody = v.InferOutput<typeof ThemeRowBody>;

export const ThemeReportBody = v.object({
  journey: v.object({ id: wholeNumber, slug: v.string(), indicator: v.picklist(Object.keys(INDICATORS) as Indicator[]) }),
  from: v.string(),
  to: v.string(),
  group_by: v.literal('theme'),
  /** The period `change` compares with: as many days, just before. */
  previous: v.object({ from: v.string(), to: v.string() }),
  /**
   * Sorted by negative mentions, most first (what customers complain about most comes first; a count, not a share, so
   * that a theme few mention cannot lead with one complaint), then by how much each theme drags the score down: its
   * detractors less its promoters (on other scales, its comments' shortfall from the scale's middle).
   */
  data: v.array(ThemeRowBody),
});
export type ThemeReportBody = v.InferOutput<typeof ThemeReportBody>;

const round1 = (value: number) => Math.round(value * 10) / 10;

/** The figures of one theme's summed counters on a journey's scale. */
export function themeFigures(counts: Record<string, number>, indicator: Indicator) {
  const comments = counts.comments ?? 0;
  const [low, mid, high] = indicator === 'nps' ? NPS_BUCKETS : SCALE_BUCKETS;
  const detractors = counts[low] ?? 0;
  const passives = counts[mid] ?? 0;
  const promoters = counts[high] ?? 0;
  const { min, max } = INDICATORS[indicator];
  const score =
    comments <= 0
      ? null
      : indicator === 'nps'
        ? round1(((promoters - detractors) / comments) * 100)
        : Math.round(((counts.score_sum ?? 0) / comments) * 100) / 100;
  // How much the theme pulls the score down: net detractors (NPS), or the shortfall of its scores from the middle.
  const drag = indicator === 'nps' ? detractors - promoters : comments * ((min + max) / 2) - (counts.score_sum ?? 0);
  const mixed = counts.aspect_mixed ?? 0;
  const negative = (counts.aspect_negative ?? 0) + mixed;
  const positive = (counts.aspect_positive ?? 0) + mixed;
  return { comments, negative, positive, detractors, passives, promoters, score, drag };
}

/**
 * GET /public/results?group_by=theme: for one journey, the period and the one of the same length before it, each
 * theme's comments, buckets and score, read from the theme counters (a year: 12 month items per theme and source, and
 * the partial months' days). The journey's counters, or with a store (or a token limited to stores) each store's in the
 * journey: the `storeJourney` cells the analysis writes beside the others.
 */
export function themeReport({ counters, settings }: ThemeReportPorts) {
  /** The counter rows of the period (a day's or a whole month's), summed over the sources; by day only with `byDay`. */
  async function rowsOf(
    tenantId: number,
    { sources, from, to, byDay = false }: { sources: [ThemeDimension, number[]][]; from: string; to: string; byDay?: boolean },
  ) {
    const months = plan(from, to, byDay);
    const wholeMonths = new Set(months.filter((m) => m.whole).map((m) => m.month));
    const partitions = [
      ...months.filter((m) => !m.whole).map((m) => ({ grain: 'day' as const, partition: m.month })),
      ...[...new Set([...wholeMonths].map((m) => m.slice(0, 4)))].map((year) => ({ grain: 'month' as const, partition: year })),
    ];
    const rows = await Promise.all(
      partitions.flatMap(({ grain, partition }) =>
        sources.map(([dimension, ids]) => counters.read({ tenantId, dimension, ids, grain, partition })),
      ),
    );
    return rows.flat().filter((row) => (row.period.length === 7 ? wholeMonths.has(row.period) : row.period >= from && row.period <= to));
  }

  /** Each theme's counts summed by `keyOf` of the row's period. */
  function sumBy(rows: readonly ThemeCounterRow[], keyOf: (period: string) => string = () => '') {
    const sums = new Map<string, Map<string, Record<string, number>>>();
    for (const row of rows) {
      const byKey = sums.get(row.theme) ?? sums.set(row.theme, new Map()).get(row.theme)!;
      const key = keyOf(row.period);
      const sum = byKey.get(key) ?? byKey.set(key, {}).get(key)!;
      for (const [name, n] of Object.entries(row.counts)) sum[name] = (sum[name] ?? 0) + n;
    }
    return sums;
  }

  async function totals(tenantId: number, { sources, from, to }: { sources: [ThemeDimension, number[]][]; from: string; to: string }) {
    return new Map([...sumBy(await rowsOf(tenantId, { sources, from, to }))].map(([theme, byKey]) => [theme, byKey.get('')!]));
  }

  /** Each theme's line: its counts in each interval of the period (a week's from day cells, a whole month's from its cell). */
  async function lines(tenantId: number, sources: [ThemeDimension, number[]][], query: Pick<ResultsQuery, 'from' | 'to' | 'interval'>) {
    const intervals = intervalsOf(query.from, query.to, query.interval!);
    const rows = await rowsOf(tenantId, { sources, from: query.from, to: query.to, byDay: query.interval === 'week' });
    const keyOf = (period: string) => intervals.find((i) => i.to >= period && (period.length === 7 || i.from <= period))!.from;
    const sums = sumBy(rows, keyOf);
    return (theme: string, indicator: Indicator): ThemeIntervalBody[] => {
      const line = intervals.map((interval) => {
        const { comments, negative, positive } = themeFigures(sums.get(theme)?.get(interval.from) ?? {}, indicator);
        return { ...interval, comments, negative, positive };
      });
      return line.map((point, i) => {
        const before = line[i - 1];
        const comparable = before && daysIn(before.from, before.to) === daysIn(point.from, point.to);
        return {
          ...point,
          negative_change: comparable ? countChange(point.negative, before.negative) : null,
          positive_change: comparable ? countChange(point.positive, before.positive) : null,
        };
      });
    };
  }

  async function report(tenantId: number, query: Omit<ResultsQuery, 'group_by'>, user: Promise<UserRecord>): Promise<ThemeReportBody> {
    user.catch(() => undefined);
    const all = await settings(tenantId);
    const problems = periodProblems(query.from, query.to);
    const journey: JourneyConfig | undefined = all.journeys.find((j) => j.slug === query.journey || String(j.id) === query.journey);
    if (!journey) problems.push({ path: 'journey', message: `no journey ${query.journey}` });
    // The theme counters keep no employee in a journey: an employee's themes are not reported by journey.
    if (query.employee !== undefined) problems.push({ path: 'employee', message: 'is not taken with group_by=theme' });
    // Nor any source: a theme's counts are every source's.
    if (query.source !== undefined) problems.push({ path: 'source', message: 'is not taken with group_by=theme' });
    // `region`, as in every grouping: an unknown one is a problem naming it (docs/regions.md).
    const regions = all.regions ?? [];
    if (query.region !== undefined && !regions.some((r) => r.id === query.region))
      problems.push({ path: 'region', message: `no region ${query.region}` });
    const { scope } = await user;
    if (problems.length || !journey) throw new ValidationError('Invalid parameters.', problems);
    // The stores the report may count: a limited token's, within the region asked for (none: the journey's counters).
    const limit = regionLimit(scope === 'all' ? undefined : scope.stores, regions, query.region);
    if (limit && query.store !== undefined && !limit.includes(query.store)) throw new NotFoundError('No such store.');
    const stores = query.store !== undefined ? [query.store] : limit;
    if (stores && stores.length > MAX_SCOPED_STORES)
      throw new ValidationError('Name a store.', [
        {
          path: 'store',
          message: `is required for themes of a region or a token limited to more than ${MAX_SCOPED_STORES} stores`,
        },
      ]);
    const sources: [ThemeDimension, number[]][] = stores
      ? stores.map((store) => ['storeJourney', [store, journey.id]])
      : [['journey', [journey.id]]];
    const days = daysIn(query.from, query.to);
    const previous = { from: addDays(query.from, -days), to: addDays(query.from, -1) };
    const [now, before, lineOf] = await Promise.all([
      totals(tenantId, { sources, from: query.from, to: query.to }),
      totals(tenantId, { sources, from: previous.from, to: previous.to }),
      query.interval ? lines(tenantId, sources, query) : undefined,
    ]);
    const locale = all.locale ?? DEFAULT_LOCALE;
    const names = new Map(themesOf(all).map((theme) => [theme.slug, theme.name[locale]]));
    const rows = [...now].map(([theme, counts]) => {
      const { drag, ...figures } = themeFigures(counts, journey.indicator);
      const earlier = themeFigures(before.get(theme) ?? {}, journey.indicator);
      const change = figures.score === null || earlier.score === null ? null : round1(figures.score - earlier.score);
      const row: ThemeRowBody = {
        theme,
        name: names.get(theme) ?? theme,
        ...figures,
        change,
        previous_negative: earlier.negative,
        negative_change: countChange(figures.negative, earlier.negative),
        positive_change: countChange(figures.positive, earlier.positive),
        ...(lineOf ? { intervals: lineOf(theme, journey.indicator) } : {}),
      };
      return { row, drag };
    });
    rows.sort(
      (a, b) =>
        b.row.negative - a.row.negative || b.drag - a.drag || b.row.comments - a.row.comments || a.row.theme.localeCompare(b.row.theme),
    );
    return {
      journey: { id: journey.id, slug: journey.slug, indicator: journey.indicator },
      from: query.from,
      to: query.to,
      group_by: 'theme',
      previous,
      data: rows.filter(({ row }) => row.comments > 0).map(({ row }) => row),
    };
  }

  return { report };
}

/**
 * The intervals of a theme's line: weeks of 7 days counted back from `to` (so the last, the one a manager reads, is
 * whole; the first may be shorter), or calendar months cut to the period. In time order.
 */
export function intervalsOf(from: string, to: string, interval: 'week' | 'month'): { from: string; to: string }[] {
  if (interval === 'month')
    return monthsOf(from, to).map((month) => {
      const last = addDays(`${month.slice(0, 4)}-${month.slice(5)}-01`, 31).slice(0, 7);
      const end = addDays(`${last}-01`, -1);
      return { from: `${month}-01` < from ? from : `${month}-01`, to: end > to ? to : end };
    });
  const weeks: { from: string; to: string }[] = [];
  for (let end = to; end >= from; end = addDays(end, -7)) {
    const start = addDays(end, -6);
    weeks.unshift({ from: start < from ? from : start, to: end });
  }
  return weeks;
}
