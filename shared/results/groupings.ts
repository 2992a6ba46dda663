import { addDays, daysOf, monthsOf } from '../dates.js';
import type { regionsByStore, RegionConfig } from '../regions.js';
import type { JourneyConfig } from '../settings/journeys.js';
import type { CounterRow, ResultsPorts } from './ports.js';

/** What a grouping's labels may read: the groups found, and the employees the report has already read. */
export interface LabelContext {
  tenantId: number;
  journey: JourneyConfig;
  keys: string[];
  employees: { id: number; name: string }[];
  stores: ResultsPorts['stores'];
  regions: readonly RegionConfig[];
}

/** One way to group a report: a new grouping is one more row of `GROUPINGS`. */
export interface Grouping {
  /**
   * What makes a group: a store's counters, an employee's, or the journey's as a whole (`class`: the journey's, each
   * class its own row). A store or employee grouping reads that dimension's counters, within a limited token's
   * stores (see `sourceOf` in `service.ts`).
   */
  dimension: 'store' | 'employee' | 'journey' | 'class';
  /** The finest counters it needs: day counters throughout, or month counters for the months the range covers. */
  grain: 'day' | 'month';
  /**
   * A counter's group, from the counter, its store or employee id (0 for the journey), the journey and each store's
   * regions; several groups when it counts in each (a store in its region and that region's parent), none to leave it out.
   */
  key: (row: CounterRow, of: { id: number; journey: JourneyConfig; regionsOf: ReturnType<typeof regionsByStore> }) => string | string[];
  /** The groups' labels; a group without one shows its key. */
  label: (context: LabelContext) => Map<string, string> | Promise<Map<string, string>>;
  /** Periods in time order (by key), other groups best first. */
  order: 'time' | 'best';
}

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Monday of the ISO week a day belongs to. */
export function weekOf(date: string): string {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return day(ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY_MS);
}

const byId: Grouping['key'] = (_row, { id }) => String(id);
const theJourney: Grouping['key'] = (_row, { journey }) => String(journey.id);
const none: Grouping['label'] = () => new Map();

/** The groupings of GET /public/results, in the order the contract lists them. */
export const GROUPINGS = {
  store: {
    dimension: 'store',
    grain: 'month',
    key: byId,
    label: async ({ tenantId, keys, stores }) =>
      new Map((await stores.getMany(tenantId, keys.map(Number))).map((store) => [String(store.id), store.trade_name])),
    order: 'best',
  },
  // A store's counters, read as for the store report, in each of its regions (docs/regions.md): no counter of its own.
  region: {
    dimension: 'store',
    grain: 'month',
    key: (_row, { id, regionsOf }) => (regionsOf.get(id) ?? []).map(String),
    label: ({ regions }) => new Map(regions.map((region) => [String(region.id), region.name])),
    order: 'best',
  },
  employee: {
    dimension: 'employee',
    grain: 'month',
    key: byId,
    label: ({ employees }) => new Map(employees.map((e) => [String(e.id), e.name])),
    order: 'best',
  },
  journey: {
    dimension: 'journey',
    grain: 'month',
    key: theJourney,
    label: ({ journey }) => new Map([[String(journey.id), journey.name ?? journey.slug]]),
    order: 'best',
  },
  class: { dimension: 'class', grain: 'month', key: theJourney, label: none, order: 'best' },
  day: { dimension: 'journey', grain: 'day', key: (row) => row.period, label: none, order: 'time' },
  week: { dimension: 'journey', grain: 'day', key: (row) => weekOf(row.period), label: none, order: 'time' },
  month: { dimension: 'journey', grain: 'month', key: (row) => `${row.period.slice(0, 7)}-01`, label: none, order: 'time' },
} satisfies Record<string, Grouping>;

export type GroupingName = keyof typeof GROUPINGS;
export const GROUPING_NAMES = Object.keys(GROUPINGS) as GroupingName[];

/** The groupings by time, whose keys are the first day of each period. */
export const TIME_GROUPINGS = ['day', 'week', 'month'] as const satisfies GroupingName[];
export type TimeGrouping = (typeof TIME_GROUPINGS)[number];

/** The key of every period of a time grouping from the one holding `from` to the one holding `to`, in order. */
export function periodKeys(groupBy: TimeGrouping, from: string, to: string): string[] {
  if (groupBy === 'day') return daysOf(from, to);
  if (groupBy === 'month') return monthsOf(from, to).map((month) => `${month}-01`);
  const weeks: string[] = [];
  for (let week = weekOf(from); week <= to; week = addDays(week, 7)) weeks.push(week);
  return weeks;
}
