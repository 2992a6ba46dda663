import { DAY_MS, dayOf, monthsOf, periodBefore, periodProblems } from '../dates.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { UserRecord } from '../access/ports.js';
import type { JourneyConfig } from '../settings/journeys.js';
import type { Settings } from '../settings/settings.js';
import type { Indicator } from '../settings/scales.js';
import { GROUPINGS, type Grouping, type GroupingName } from './groupings.js';
import type { CounterRow, ResultsPorts } from './ports.js';
import { changeOf, DEFAULT_MIN_ANSWERS_TO_RANK, rankByInterval, type Change } from './ranking.js';
import { addInto, digitsOf, estimateOf, rowOf, type ResultRow } from './report.js';
import type { ResultsQuery } from './schema.js';
import type { Dimension } from './tally.js';
import { driverItems, driversReport, type DriversReportBody } from './drivers-report.js';
import { countsOfSource } from './sources.js';
import { regionLimit, regionsByStore } from '../regions.js';

/** Below this many answers a group is `low_sample`, unless the journey sets its own `minSample`. */
export const DEFAULT_MIN_SAMPLE = 5;
/**
 * A token limited to stores reads an employee's figures store by store (one query per store and partition): beyond
 * this many stores it names a store instead, which keeps a report to a few hundred queries.
 */
export const MAX_SCOPED_STORES = 50;

export interface Report {
  journey: { id: number; slug: string; indicator: string };
  from: string;
  to: string;
  group_by: GroupingName;
  min_sample: number;
  /** Store and employee reports: below this many answers a row is not ranked. */
  min_answers_to_rank: number;
  /** Store and employee reports: the period each row's `change` is against (null: none before the calendar's first year). */
  compared_with: { from: string; to: string } | null;
  data: ResultRow[];
}

/** The counters a report reads: one dimension, by each of these id prefixes; `groupId` picks a row's group. */
interface Source {
  dimension: Dimension;
  prefixes: number[][];
  groupId: (row: CounterRow) => number;
}

/** The months a period touches, each read whole (its month counter) when the period covers it, else by its days. */
export function plan(from: string, to: string, byDay: boolean): { month: string; whole: boolean }[] {
  return monthsOf(from, to).map((month) => {
    const next = new Date(`${month}-01T00:00:00Z`);
    next.setUTCMonth(next.getUTCMonth() + 1);
    return { month, whole: !byDay && from <= `${month}-01` && dayOf(next.getTime() - DAY_MS) <= to };
  });
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

  /** The date rule, here too: the page builds its periods (the one before, the trend) and asks for them. */
  function checkRange(query: ResultsQuery): void {
    // The themes' lines alone are counted by interval (the trend is `group_by=day|week|month`).
    if (query.interval !== undefined)
      throw new ValidationError('Invalid parameters.', [{ path: 'interval', message: 'is taken only with group_by=theme' }]);
    const problems = periodProblems(query.from, query.to);
    if (problems.length) throw new ValidationError('Invalid period.', problems);
  }

  /**
   * The dimension a report reads, the id prefixes it reads it by, and which id of a row is its group. `stores` is the
   * scope of a limited token: its every figure then comes from its own stores' counters (store, or store-employee for
   * an employee's figures), never from the employee dimension, which sums an employee's answers in every store.
   */
  function sourceOf(query: ResultsQuery, stores?: number[]): Source {
    const { store, employee } = query;
    const by = GROUPINGS[query.group_by].dimension;
    const first = (row: CounterRow) => row.ids[0]!;
    const second = (row: CounterRow) => row.ids[1]!;
    const whole = () => 0;
    // The employee's counters in each of the token's stores.
    const perStore = (scope: number[], groupId: Source['groupId']): Source => {
      if (scope.length > MAX_SCOPED_STORES)
        throw new ValidationError('Name a store.', [
          { path: 'store', message: `is required for employee figures with a token limited to more than ${MAX_SCOPED_STORES} stores` },
        ]);
      return { dimension: 'storeEmployee', prefixes: scope.map((id) => (employee !== undefined ? [id, employee] : [id])), groupId };
    };
    if (store !== undefined) {
      if (employee !== undefined || by === 'employee')
        return {
          dimension: 'storeEmployee',
          prefixes: [employee !== undefined ? [store, employee] : [store]],
          groupId: by === 'employee' ? second : by === 'store' ? first : whole,
        };
      return { dimension: 'store', prefixes: [[store]], groupId: by === 'store' ? first : whole };
    }
    // A limited token's stores, each its own read (a bounded number): its report reads nothing of the tenant's other stores.
    const own = stores && stores.length <= MAX_SCOPED_STORES ? stores.map((id) => [id]) : [[]];
    if (by === 'store')
      return employee === undefined
        ? { dimension: 'store', prefixes: own, groupId: first }
        : stores
          ? perStore(stores, first)
          : // No index leads with the employee: its rows are picked from every store's (see `report`).
            { dimension: 'storeEmployee', prefixes: [[]], groupId: first };
    if (by === 'employee')
      return stores
        ? perStore(stores, second)
        : { dimension: 'employee', prefixes: [employee !== undefined ? [employee] : []], groupId: first };
    if (employee !== undefined) return stores ? perStore(stores, whole) : { dimension: 'employee', prefixes: [[employee]], groupId: whole };
    // A token limited to some stores sees the sum of its stores, not the tenant's total.
    return stores ? { dimension: 'store', prefixes: own, groupId: whole } : { dimension: 'all', prefixes: [[]], groupId: whole };
  }

  async function readRows(
    tenantId: number,
    { journey, query, source: { dimension, prefixes } }: { journey: JourneyConfig; query: ResultsQuery; source: Source },
  ) {
    const months = plan(query.from, query.to, GROUPINGS[query.group_by].grain === 'day');
    const wholeMonths = new Set(months.filter((m) => m.whole).map((m) => m.month));
    const years = [...new Set([...wholeMonths].map((m) => m.slice(0, 4)))];
    const partitions = [
      ...months.filter((m) => !m.whole).map((m) => ({ grain: 'day' as const, partition: m.month })),
      ...years.map((year) => ({ grain: 'month' as const, partition: year })),
    ];
    const reads = partitions.flatMap(({ grain, partition }) =>
      prefixes.map((ids) =>
        counters.read({ tenantId, journeyId: journey.id, dimension, grain, partition, ids, shards: journey.resultShards }),
      ),
    );
    return (await Promise.all(reads))
      .flat()
      .filter((row) => (row.period.length === 7 ? wholeMonths.has(row.period) : row.period >= query.from && row.period <= query.to));
  }

  /**
   * The counts of a report's groups in the user's scope (and in the period before, for a store or employee report).
   * `user` is being resolved: counters that do not depend on the user's scope are read meanwhile.
   */
  async function scopedCounts(tenantId: number, query: ResultsQuery, user: Promise<UserRecord>) {
    // Handled here too, so that a failure before it is awaited is not an unhandled rejection.
    user.catch(() => undefined);
    const all = await settings(tenantId);
    const grouping: Grouping = GROUPINGS[query.group_by];
    let journey: JourneyConfig;
    try {
      checkRange(query);
      journey = journeyOf(all, query.journey);
      regionLimit(undefined, all.regions ?? [], query.region);
    } catch (invalid) {
      // A caller without a valid token learns nothing about its request: its 401 comes first.
      await user;
      throw invalid;
    }
    const unscoped = sourceOf(query);
    // Read before the user is known, unless it is every store's counters (a limited token reads only its own).
    const everyStore = unscoped.dimension === 'store' && query.store === undefined;
    const early = unscoped.dimension === 'all' || everyStore ? undefined : readRows(tenantId, { journey, query, source: unscoped });
    // Settled whatever the user turns out to be: a refused token's 401 wins over anything the read answered.
    early?.catch(() => undefined);
    const { scope } = await user;
    const limited = scope !== 'all';
    // The stores a report may count: a limited token's, within the region asked for.
    const limit = regionLimit(limited ? scope.stores : undefined, all.regions ?? [], query.region);
    if (limit && query.store !== undefined && !limit.includes(query.store)) throw new NotFoundError('No such store.');
    const source = limit ? sourceOf(query, limit) : unscoped;
    const same = early && source.dimension === unscoped.dimension && JSON.stringify(source.prefixes) === JSON.stringify(unscoped.prefixes);
    // A store's or an employee's row carries its change against the period before: the same counters, read again.
    const ranked = grouping.dimension === 'store' || grouping.dimension === 'employee';
    const before = ranked ? periodBefore(query.from, query.to) : undefined;
    const [now, then] = await Promise.all([
      same ? early : readRows(tenantId, { journey, query, source }),
      before ? readRows(tenantId, { journey, query: { ...query, ...before }, source }) : [],
    ]);
    // Every source of a limited token or a region is its stores' counters (store or store-employee): only those are kept.
    const inLimit = limit ? new Set(limit) : undefined;
    // A report of one source sees each counter as that source's (`sources.ts`).
    const kept = (read: CounterRow[]) =>
      read
        .filter(
          (row) =>
            (source.dimension !== 'storeEmployee' || query.employee === undefined || row.ids[1] === query.employee) &&
            (!inLimit || inLimit.has(row.ids[0]!)),
        )
        .map((row) => (query.source ? { ...row, counts: countsOfSource(row.counts, query.source) } : row))
        // A counter with nothing of the source (a store with kiosk answers only) makes no row of it.
        .filter((row) => !query.source || Object.values(row.counts).some((count) => count !== 0));
    const rows = kept(now);

    // Employees a limited token may see: those of its groups (checked when an employee is named or listed).
    const employeeIds =
      grouping.dimension === 'employee' ? [...new Set(rows.map(source.groupId))] : query.employee !== undefined ? [query.employee] : [];
    const employeeList = employeeIds.length ? await employees.getMany(tenantId, employeeIds) : [];
    const visibleEmployee = (id: number) =>
      !limited || (employeeList.find((e) => e.id === id)?.groups ?? []).some((group) => scope.groups.includes(group));
    if (query.employee !== undefined && !visibleEmployee(query.employee)) throw new NotFoundError('No such employee.');

    const regions = all.regions ?? [];
    const regionsOf = regionsByStore(regions);
    const grouped = (read: CounterRow[]) => {
      const groups = new Map<string, Record<string, number>>();
      for (const row of read) {
        if (grouping.dimension === 'employee' && !visibleEmployee(source.groupId(row))) continue;
        for (const key of [grouping.key(row, { id: source.groupId(row), journey, regionsOf })].flat())
          groups.set(key, addInto(groups.get(key) ?? {}, row.counts));
      }
      return groups;
    };
    return { all, journey, grouping, groups: grouped(rows), previous: grouped(kept(then)), before, ranked, employeeList };
  }

  async function report(tenantId: number, query: ResultsQuery, user: Promise<UserRecord>): Promise<Report> {
    const { all, journey, grouping, groups, previous, before, ranked, employeeList } = await scopedCounts(tenantId, query, user);
    const regions = all.regions ?? [];
    const minSample = journey.minSample ?? DEFAULT_MIN_SAMPLE;
    let data: ResultRow[];
    if (grouping.dimension === 'class') {
      const total = groups.get(String(journey.id)) ?? {};
      data = journey.classes.flatMap((classId) => {
        const configured = all.classes.find((c) => c.id === classId);
        return configured
          ? [
              rowOf({
                key: String(classId),
                label: configured.label,
                counts: total,
                indicator: configured.type,
                minSample,
                prefix: `c${classId}`,
              }),
            ]
          : [];
      });
    } else {
      const labels = await grouping.label({ tenantId, journey, keys: [...groups.keys()], employees: employeeList, stores, regions });
      data = [...groups].map(([key, counts]) => ({
        ...rowOf({ key, label: labels.get(key) ?? key, counts, indicator: journey.indicator, minSample }),
        change: before ? changeAgainst(counts, previous.get(key), journey.indicator) : null,
      }));
    }
    const minAnswersToRank = all.minAnswersToRank ?? DEFAULT_MIN_ANSWERS_TO_RANK;
    if (ranked)
      data = rankByInterval(
        data.map((row) => ({ row, answers: row.responses, interval: row.interval })),
        minAnswersToRank,
      ).map(({ row, rank, worst_rank }) => ({ ...row, rank, worst_rank }));
    else if (grouping.order === 'time') data.sort((a, b) => a.key.localeCompare(b.key));
    else data.sort(bestFirst);
    return {
      journey: { id: journey.id, slug: journey.slug, indicator: journey.indicator },
      from: query.from,
      to: query.to,
      group_by: query.group_by,
      min_sample: minSample,
      min_answers_to_rank: minAnswersToRank,
      compared_with: before ?? null,
      data,
    };
  }

  /**
   * GET /public/results?group_by=driver: the journey's counts in the user's scope and the query's filters (store,
   * region, employee), read as the journey's report reads them, and the drivers computed from their sums
   * (`drivers-report.ts`). A journey without items cannot have drivers; a source cannot be asked for (the drivers'
   * sums are every source's).
   */
  async function drivers(tenantId: number, query: Omit<ResultsQuery, 'group_by'>, user: Promise<UserRecord>): Promise<DriversReportBody> {
    user.catch(() => undefined);
    const all = await settings(tenantId);
    const journey = all.journeys.find((j) => j.slug === query.journey || String(j.id) === query.journey);
    const items = journey ? driverItems(journey, all.classes) : [];
    const problems = [
      ...(journey && items.length === 0
        ? [{ path: 'journey', message: `journey ${query.journey} rates no items: it has no drivers` }]
        : []),
      ...(query.source !== undefined ? [{ path: 'source', message: 'is not taken with group_by=driver' }] : []),
    ];
    if (problems.length) {
      await user;
      throw new ValidationError('Invalid parameters for drivers.', problems);
    }
    const scoped = await scopedCounts(tenantId, { ...query, group_by: 'journey' }, user);
    const head = {
      journey: { id: scoped.journey.id, slug: scoped.journey.slug, indicator: scoped.journey.indicator },
      from: query.from,
      to: query.to,
    };
    return driversReport(head, scoped.groups.get(String(scoped.journey.id)) ?? {}, items);
  }

  return { report, drivers };
}

/** A group's change against its counts in the period before, rounded as its figure is; null when either has no answers. */
function changeAgainst(now: Record<string, number>, then: Record<string, number> | undefined, indicator: Indicator): Change | null {
  const [current, previous] = [estimateOf(now, indicator), then && estimateOf(then, indicator)];
  if (!current || !previous) return null;
  const change = changeOf(current, previous);
  const round = (value: number) => Math.round(value * 10 ** digitsOf(indicator)) / 10 ** digitsOf(indicator);
  return { value: round(change.value), low: round(change.low), high: round(change.high), significant: change.significant };
}

/** Groups best first: by NPS (else the mean), enough answers before too few, then by answers. */
function bestFirst(a: ResultRow, b: ResultRow): number {
  if (a.low_sample !== b.low_sample) return a.low_sample ? 1 : -1;
  const score = (row: ResultRow) => row.nps?.score ?? row.mean ?? -Infinity;
  return score(b) - score(a) || b.responses - a.responses;
}

export type ResultsService = ReturnType<typeof resultsService>;
