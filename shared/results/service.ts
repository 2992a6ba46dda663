import { NotFoundError, ValidationError } from '../errors.js';
import type { UserRecord } from '../tenants/ports.js';
import type { JourneyConfig, Settings } from '../tenants/config-schema.js';
import type { CounterRow, ResultsPorts } from './ports.js';
import { addInto, rowOf, type ResultRow } from './report.js';
import type { Dimension } from './tally.js';

export const GROUPINGS = ['store', 'employee', 'journey', 'class', 'day', 'week', 'month'] as const;
export type Grouping = (typeof GROUPINGS)[number];
export const MAX_REPORT_DAYS = 400;
/** Below this many answers a group is `low_sample`, unless the journey sets its own `minSample`. */
export const DEFAULT_MIN_SAMPLE = 5;

export interface ResultsQuery {
  journey: string;
  from: string;
  to: string;
  group_by: Grouping;
  store?: number | undefined;
  employee?: number | undefined;
}

export interface Report {
  journey: { id: number; slug: string; indicator: string };
  from: string;
  to: string;
  group_by: Grouping;
  min_sample: number;
  data: ResultRow[];
}

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The months a range touches, each read whole (its month counter) when the range covers it, else by its days. */
function plan(from: string, to: string, byDay: boolean): { month: string; whole: boolean }[] {
  const months: { month: string; whole: boolean }[] = [];
  for (let cursor = `${from.slice(0, 7)}-01`; cursor <= to;) {
    const month = cursor.slice(0, 7);
    const next = new Date(`${month}-01T00:00:00Z`);
    next.setUTCMonth(next.getUTCMonth() + 1);
    const last = day(next.getTime() - DAY_MS);
    months.push({ month, whole: !byDay && from <= `${month}-01` && last <= to });
    cursor = day(next.getTime());
  }
  return months;
}

/** Monday of the ISO week a day belongs to. */
function weekOf(date: string): string {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return day(ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY_MS);
}

/**
 * Reports over the counters: a year for a tenant of any size reads at most 12 month counters and two partial
 * months of day counters per group, never an answer.
 */
export function resultsService({ counters, settings, stores, employees }: ResultsPorts) {
  function journeyOf(all: Settings, wanted: string): JourneyConfig {
    const journey = all.journeys.find((j) => j.slug === wanted || String(j.id) === wanted);
    if (!journey) throw new ValidationError('No such journey.', [{ path: 'journey', message: `no journey ${wanted}` }]);
    return journey;
  }

  function checkRange(query: ResultsQuery): void {
    const days = (Date.parse(query.to) - Date.parse(query.from)) / DAY_MS;
    if (days < 0) throw new ValidationError('The range is empty.', [{ path: 'to', message: 'must not be before from' }]);
    if (days + 1 > MAX_REPORT_DAYS)
      throw new ValidationError('The range is too long.', [
        { path: 'to', message: `at most ${MAX_REPORT_DAYS} days after from, both included` },
      ]);
  }

  /** The dimension a report reads, the ids it narrows to, and which id of a row is its group. */
  function sourceOf(query: ResultsQuery, limited: boolean): { dimension: Dimension; ids: number[]; groupId: (row: CounterRow) => number } {
    const { store, employee, group_by: groupBy } = query;
    if (groupBy === 'store')
      return employee !== undefined
        ? { dimension: 'storeEmployee', ids: store !== undefined ? [store, employee] : [], groupId: (row) => row.ids[0]! }
        : { dimension: 'store', ids: store !== undefined ? [store] : [], groupId: (row) => row.ids[0]! };
    if (groupBy === 'employee')
      return store !== undefined
        ? { dimension: 'storeEmployee', ids: employee !== undefined ? [store, employee] : [store], groupId: (row) => row.ids[1]! }
        : { dimension: 'employee', ids: employee !== undefined ? [employee] : [], groupId: (row) => row.ids[0]! };
    if (store !== undefined && employee !== undefined) return { dimension: 'storeEmployee', ids: [store, employee], groupId: () => 0 };
    if (store !== undefined) return { dimension: 'store', ids: [store], groupId: () => 0 };
    if (employee !== undefined) return { dimension: 'employee', ids: [employee], groupId: () => 0 };
    // A token limited to some stores sees the sum of its stores, not the tenant's total.
    return limited ? { dimension: 'store', ids: [], groupId: () => 0 } : { dimension: 'all', ids: [], groupId: () => 0 };
  }

  async function readRows(tenantId: number, journeyId: number, query: ResultsQuery, dimension: Dimension, ids: number[]) {
    const byDay = query.group_by === 'day' || query.group_by === 'week';
    const months = plan(query.from, query.to, byDay);
    const wholeMonths = new Set(months.filter((m) => m.whole).map((m) => m.month));
    const years = [...new Set([...wholeMonths].map((m) => m.slice(0, 4)))];
    const reads = [
      ...months
        .filter((m) => !m.whole)
        .map((m) => counters.read({ tenantId, journeyId, dimension, grain: 'day', partition: m.month, ids })),
      ...years.map((year) => counters.read({ tenantId, journeyId, dimension, grain: 'month', partition: year, ids })),
    ];
    return (await Promise.all(reads))
      .flat()
      .filter((row) => (row.period.length === 7 ? wholeMonths.has(row.period) : row.period >= query.from && row.period <= query.to));
  }

  /** `user` is being resolved: counters that do not depend on the user's scope are read meanwhile. */
  async function report(tenantId: number, query: ResultsQuery, user: Promise<UserRecord>): Promise<Report> {
    // Handled here too, so that a failure before it is awaited is not an unhandled rejection.
    user.catch(() => undefined);
    const all = await settings(tenantId);
    let journey: JourneyConfig;
    try {
      checkRange(query);
      journey = journeyOf(all, query.journey);
    } catch (invalid) {
      // A caller without a valid token learns nothing about its request: its 401 comes first.
      await user;
      throw invalid;
    }
    const unscoped = sourceOf(query, false);
    const early = unscoped.dimension === 'all' ? undefined : readRows(tenantId, journey.id, query, unscoped.dimension, unscoped.ids);
    // Settled whatever the user turns out to be: a refused token's 401 wins over anything the read answered.
    early?.catch(() => undefined);
    const { scope } = await user;
    const limited = scope !== 'all';
    if (limited && query.store !== undefined && !scope.stores.includes(query.store)) throw new NotFoundError('No such store.');
    const source = sourceOf(query, limited);
    let rows = await (early && source.dimension === unscoped.dimension
      ? early
      : readRows(tenantId, journey.id, query, source.dimension, source.ids));
    if (limited && (source.dimension === 'store' || source.dimension === 'storeEmployee'))
      rows = rows.filter((row) => scope.stores.includes(row.ids[0]!));

    // Employees a limited token may see: those of its groups (checked when an employee is named or listed).
    const employeeIds =
      query.group_by === 'employee' ? [...new Set(rows.map(source.groupId))] : query.employee !== undefined ? [query.employee] : [];
    const employeeList = employeeIds.length ? await employees.getMany(tenantId, employeeIds) : [];
    const visibleEmployee = (id: number) =>
      !limited || (employeeList.find((e) => e.id === id)?.groups ?? []).some((group) => scope.groups.includes(group));
    if (query.employee !== undefined && !visibleEmployee(query.employee)) throw new NotFoundError('No such employee.');

    const groups = new Map<string, Record<string, number>>();
    const keyOf = (row: CounterRow): string => {
      switch (query.group_by) {
        case 'day':
          return row.period;
        case 'week':
          return weekOf(row.period);
        case 'month':
          return `${row.period.slice(0, 7)}-01`;
        case 'journey':
        case 'class':
          return String(journey.id);
        default:
          return String(source.groupId(row));
      }
    };
    for (const row of rows) {
      if (query.group_by === 'employee' && !visibleEmployee(source.groupId(row))) continue;
      const key = keyOf(row);
      groups.set(key, addInto(groups.get(key) ?? {}, row.counts));
    }

    const minSample = journey.minSample ?? DEFAULT_MIN_SAMPLE;
    let data: ResultRow[];
    if (query.group_by === 'class') {
      const total = groups.get(String(journey.id)) ?? {};
      data = journey.classes.flatMap((classId) => {
        const configured = all.classes.find((c) => c.id === classId);
        return configured ? [rowOf(String(classId), configured.label, total, configured.type, minSample, `c${classId}`)] : [];
      });
    } else {
      const labels = await labelsOf(tenantId, query, journey, [...groups.keys()], employeeList);
      data = [...groups].map(([key, counts]) => rowOf(key, labels.get(key) ?? key, counts, journey.indicator, minSample));
    }
    if (['day', 'week', 'month'].includes(query.group_by)) data.sort((a, b) => a.key.localeCompare(b.key));
    else data.sort(bestFirst);
    return {
      journey: { id: journey.id, slug: journey.slug, indicator: journey.indicator },
      from: query.from,
      to: query.to,
      group_by: query.group_by,
      min_sample: minSample,
      data,
    };
  }

  async function labelsOf(
    tenantId: number,
    query: ResultsQuery,
    journey: JourneyConfig,
    keys: string[],
    employeeList: { id: number; name: string }[],
  ): Promise<Map<string, string>> {
    if (query.group_by === 'journey') return new Map([[String(journey.id), journey.name ?? journey.slug]]);
    if (query.group_by === 'employee') return new Map(employeeList.map((e) => [String(e.id), e.name]));
    if (query.group_by === 'store')
      return new Map((await stores.getMany(tenantId, keys.map(Number))).map((store) => [String(store.id), store.trade_name]));
    return new Map();
  }

  return { report };
}

/** Groups best first: by NPS (else the mean), enough answers before too few, then by answers. */
function bestFirst(a: ResultRow, b: ResultRow): number {
  if (a.low_sample !== b.low_sample) return a.low_sample ? 1 : -1;
  const score = (row: ResultRow) => row.nps?.score ?? row.mean ?? -Infinity;
  return score(b) - score(a) || b.responses - a.responses;
}

export type ResultsService = ReturnType<typeof resultsService>;
