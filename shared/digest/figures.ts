import { addDays } from '../dates.js';
import type { UserRecord } from '../access/ports.js';
import type { CaseSelection, CaseStore } from '../cases/ports.js';
import { CLOSED_STATUSES, type CaseRecord } from '../cases/record.js';
import { weekOf } from '../results/groupings.js';
import type { Nps, ResultRow } from '../results/report.js';
import { changeOf as intervalChange } from '../results/ranking.js';
import type { ResultsService } from '../results/service.js';
import { appCasePath } from '../session/paths.js';
import { timeZoneOf } from '../locale.js';
import type { Settings } from '../settings/settings.js';
import type { AnswerStore } from '../answers/ports.js';
import { scoresOf } from '../answers/schema.js';
import { MAX_SCOPED_STORES } from '../results/service.js';
import type { ResultsQuery } from '../results/schema.js';
import type { ThemeReportBody } from '../themes/report.js';
import { excerpt } from '../themes/redact.js';
import { changeOf as countsChange } from '../results/ranking.js';
import { periodProblems, daysIn } from '../dates.js';
import { ValidationError } from '../errors.js';
import { storesOfRegions } from '../regions.js';
import { distinctTexts } from '../text.js';
import { APP_ANSWERS_PATH } from '../session/paths.js';

/**
 * A digest's figures (issue 48): for the stores a user may see, each journey's score against the period before (and
 * whether the change is beyond chance), answers and response rate, the recovery rate, the best and worst stores (or
 * employees, for one store), and the open and overdue cases. Every figure is a report of the results service, read
 * in the user's scope as GET /public/results reads it, so the two always agree.
 */

export const DIGEST_PERIODS = ['week', 'day'] as const;
export type DigestPeriod = (typeof DIGEST_PERIODS)[number];
/** What a digest covers: the last whole week or day, or the days a reader asked for (`from` and `to`). */
export type DigestSpan = DigestPeriod | 'range';
/** The longest period a reader may ask for, both days included. */
export const DIGEST_MAX_DAYS = 31;
/** How many stores (and regions) a digest names, those that need attention first; the others are counted. */
export const DIGEST_STORES = 10;
/** A period without answers shows this many of the last weeks that had any, looked for this many weeks back. */
export const DIGEST_QUIET_WEEKS = 4;
export const DIGEST_LOOKBACK_WEEKS = 12;
/** How many of the stores with answers (most answers first) are read for the first line's store and theme. */
export const DIGEST_FIRST_STORES = 20;
/** Examples a complaint quotes, and the newest comments of its theme read to find as many that say different things. */
export const DIGEST_EXAMPLES = 2;
export const DIGEST_EXAMPLES_READ = 10;

/** How many rows a digest names at either end of a ranking, and how many cases of each list. */
export const DIGEST_RANKED = 3;
export const DIGEST_CASES = 10;
/** How many themes a digest names (those most mentioned by detractors), and how long an example's words may be. */
export const DIGEST_THEMES = 3;
export const DIGEST_EXAMPLE_CHARACTERS = 200;

/**
 * The days a reader asked for and the period of as many days before; a problem naming the field when one is missing,
 * not a date, after `to`, or more than DIGEST_MAX_DAYS from it.
 */
export function rangeDays(from: string | undefined, to: string | undefined): DigestDays {
  if (from === undefined || to === undefined)
    throw new ValidationError('Invalid period.', [{ path: from === undefined ? 'from' : 'to', message: 'is required with the other' }]);
  const problems = periodProblems(from, to, { maxDays: DIGEST_MAX_DAYS });
  if (problems.length) throw new ValidationError('Invalid period.', problems);
  const span = daysIn(from, to);
  return { from, to, previous: { from: addDays(from, -span), to: addDays(from, -1) } };
}

/**
 * What days a reader asked for are: one day, a whole week (Monday to Sunday, as digestDays counts it), or a range. The
 * e-mail's link asks for its own week by its days, and the page it opens is titled as the e-mail is.
 */
const periodOfDays = ({ from, to }: DigestDays): DigestSpan =>
  from === to ? 'day' : daysIn(from, to) === 7 && weekOf(from) === from ? 'week' : 'range';

/** A period's first and last day (UTC counters, read as the tenant's calendar days), and the period before. */
export interface DigestDays {
  from: string;
  to: string;
  previous: { from: string; to: string };
}

/** Today's date in `timeZone`, YYYY-MM-DD. */
export const localDay = (now: Date, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(now);

/** The last whole period before `now` in the tenant's zone: the week Monday to Sunday before this one, or yesterday. */
export function digestDays(period: DigestPeriod, now: Date, timeZone: string): DigestDays {
  const today = localDay(now, timeZone);
  const span = period === 'week' ? 7 : 1;
  const from = period === 'week' ? addDays(weekOf(today), -7) : addDays(today, -1);
  const to = addDays(from, span - 1);
  return { from, to, previous: { from: addDays(from, -span), to: addDays(from, -1) } };
}

/** A ranked row: a store or an employee, its score and the interval it is ranked by. */
export interface RankedRow {
  key: string;
  label: string;
  responses: number;
  score: number | null;
  ci95: [number, number] | null;
}

export interface Ranking {
  best: RankedRow[];
  worst: RankedRow[];
  /** Rows with fewer answers than the journey's minimum: listed apart, not ranked. */
  few: RankedRow[];
}

const rankedOf = (row: ResultRow): RankedRow => ({
  key: row.key,
  label: row.label,
  responses: row.responses,
  score: row.nps?.score ?? row.mean,
  ci95: row.interval ? [row.interval.low, row.interval.high] : null,
});

/**
 * The ends of a store or employee report as the results ranked it (shared/results/ranking.ts: best by the lower end of
 * the 95% interval, worst by the upper end, rows under the tenant's `minAnswersToRank` unranked): the first `count`
 * best, the first `count` worst of the others, and the unranked rows with answers apart.
 */
export function rankingOf(rows: readonly ResultRow[], count = DIGEST_RANKED): Ranking {
  const ranked = rows.filter((r) => r.rank !== null);
  const best = [...ranked].sort((a, b) => a.rank! - b.rank!).slice(0, count);
  const worst = ranked
    .filter((r) => !best.includes(r))
    .sort((a, b) => a.worst_rank! - b.worst_rank!)
    .slice(0, count);
  return {
    best: best.map(rankedOf),
    worst: worst.map(rankedOf),
    few: rows.filter((r) => r.rank === null && r.responses > 0).map(rankedOf),
  };
}

/** A change of NPS between two independent periods, with its 95% interval (the results' changeOf, rounded). */
export interface Change {
  delta: number;
  ci95: [number, number];
  /** Beyond chance: the interval of the change excludes zero. */
  significant: boolean;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const estimate = (n: Nps) => ({ value: n.score, low: n.ci95[0], high: n.ci95[1] });

export function changeOf(current: Nps | null, previous: Nps | null): Change | null {
  if (!current || !previous) return null;
  const { value, low, high, significant } = intervalChange(estimate(current), estimate(previous));
  return { delta: round1(value), ci95: [round1(low), round1(high)], significant };
}

/** A store (or a region) of the reader's scope in a journey: its score, its change against the period before, its answers. */
export interface ScopeRow {
  id: number;
  name: string;
  answers: number;
  /** NPS, else the mean; null without answers. */
  score: number | null;
  /** The score less the period before's, its 95% interval and whether that excludes zero (the results' `change`). */
  change: { value: number; low: number; high: number; significant: boolean } | null;
  /** Fell beyond chance, or has answers and the lowest scores: listed first. */
  attention: boolean;
}

export interface JourneyDigest {
  journey: { id: number; slug: string; name: string; indicator: string };
  /** NPS for an NPS journey, else the mean; null without answers. */
  score: number | null;
  ci95: [number, number] | null;
  previous_score: number | null;
  /** NPS journeys only. */
  change: Change | null;
  responses: number;
  sent: number;
  response_rate: number | null;
  recovery_answers: number;
  recovery_rate: number | null;
  /** `store` for a user of several stores, `employee` for one store. */
  ranked_by: 'store' | 'employee';
  ranking: Ranking;
  /** The reader's regions (a reader of regions only), then its stores: those needing attention first, DIGEST_STORES at most. */
  regions: ScopeRow[];
  stores: ScopeRow[];
  /** How many more stores the scope holds than are listed. */
  more_stores: number;
}

export interface DigestCase {
  id: number;
  /** The short number in the tenant (null for a case opened before numbers). */
  number: number | null;
  store_id: number;
  /** The store's name (its id when it has none any more). */
  store: string;
  score: number;
  status: string;
  overdue: boolean;
  opened_at: string;
  /** Whole days since it opened, at the digest's reading. */
  age_days: number;
  due_at: string;
  /** Its one person, or null: no owner. */
  owner: string | null;
  /** The case's page in the workspace. */
  link: string;
}

/** A theme customers complained about (negative mentions), with how that moved, and examples; or praised (positive). */
export interface DigestTheme {
  theme: string;
  /** In the tenant's language. */
  name: string;
  /** Negative mentions in the period, over every journey (what the comment says of the theme). */
  negative: number;
  /** Negative mentions in the period of as many days before. */
  previous_negative: number;
  /** More than before beyond chance (the results' interval rule over the two counts' Poisson intervals). */
  rose: boolean;
  /** Comments of low scores that mention it, redacted (no e-mail, card, CPF or phone) and cut; DIGEST_EXAMPLES at most. */
  examples: string[];
}

/** What to do first: the store and theme whose complaints rose most beyond chance, else the oldest overdue case. */
export type FirstAction =
  | {
      kind: 'theme';
      store_id: number;
      store: string;
      theme: string;
      name: string;
      negative: number;
      previous_negative: number;
      link: string;
    }
  | { kind: 'case'; case: DigestCase; link: string }
  | { kind: 'none' };

export interface DigestFigures {
  period: DigestSpan;
  from: string;
  to: string;
  previous: { from: string; to: string };
  store: number | null;
  first: FirstAction;
  journeys: JourneyDigest[];
  /** Whether the period had any answer in the reader's scope. */
  answered: boolean;
  /** A period without answers: the last weeks (up to DIGEST_QUIET_WEEKS, most recent first) that had any; else empty. */
  last_weeks: { from: string; to: string; answers: number }[];
  /** Overdue cases newest overdue first, then the other open cases first due first, a page of each. */
  cases: { open: DigestCase[]; overdue: DigestCase[]; more: boolean };
  /** The top complaints; empty when no comment was analysed (or the scope is too wide to read them). */
  themes: DigestTheme[];
  /** What customers praised most (positive mentions). */
  praise: { theme: string; name: string; positive: number }[];
}

export interface DigestPorts {
  report: ResultsService['report'];
  settings: (tenantId: number) => Promise<Settings>;
  cases: Pick<CaseStore, 'list'>;
  /** The names of some stores (one batched read). */
  storeNames: (tenantId: number, ids: number[]) => Promise<Map<number, string>>;
  /** The themes' report (as GET /public/results?group_by=theme reads it) and the answers' lists by theme (the inbox's). */
  themes: {
    report(tenantId: number, query: Omit<ResultsQuery, 'group_by'>, user: Promise<UserRecord>): Promise<ThemeReportBody>;
    answers: Pick<AnswerStore, 'list'>;
  };
  /** The base URL of the workspace's links. */
  baseUrl: string;
}

export interface DigestRequest {
  tenantId: number;
  period: DigestPeriod;
  store?: number | undefined;
  /** A period of the reader's own (both or neither): instead of `period`'s last whole one. */
  from?: string | undefined;
  to?: string | undefined;
  /** The moment whose period (`period`'s last whole one) is read. */
  now: Date;
  /** The moment the cases' ages are read at: `now` unless said (a period's e-mail names its period by a moment in it). */
  readAt?: Date | undefined;
}

type Row = ResultRow;
const scoreOf = (row: Row | undefined) => (row ? (row.nps?.score ?? row.mean) : null);

const scopeRow = (row: Row): ScopeRow => ({
  id: Number(row.key),
  name: row.label,
  answers: row.responses,
  score: scoreOf(row),
  change: row.change ?? null,
  attention: false,
});

/**
 * The rows that need attention first: those that fell beyond chance (most first), then the others with answers from
 * the lowest score, then those without answers, by name. The fallen ones, and the lowest third of the others, are
 * marked for attention.
 */
export function byAttention(rows: ScopeRow[]): ScopeRow[] {
  const fell = (r: ScopeRow) => (r.change?.significant && r.change.value < 0 ? r.change.value : 0);
  const sorted = [...rows].sort(
    (a, b) =>
      fell(a) - fell(b) ||
      (a.score === null ? 1 : 0) - (b.score === null ? 1 : 0) ||
      (a.score ?? 0) - (b.score ?? 0) ||
      a.name.localeCompare(b.name),
  );
  const scored = sorted.filter((r) => r.score !== null && fell(r) === 0);
  const low = new Set(scored.length > 2 ? scored.slice(0, Math.ceil(scored.length / 3)) : []);
  return sorted.map((r) => ({ ...r, attention: fell(r) < 0 || low.has(r) }));
}

/** The reader's stores as a request resolves them: one store asked for, the scope's, or every store (undefined). */
const storesOf = (store: number | undefined, user: UserRecord) =>
  store !== undefined ? [store] : user.scope === 'all' ? undefined : user.scope.stores;

/** The digest of `user` (its scope as results read it: a store outside it is a 404 there, and so here). */
export async function digestFigures(ports: DigestPorts, request: DigestRequest, user: Promise<UserRecord>): Promise<DigestFigures> {
  user.catch(() => undefined);
  const { tenantId, store, now } = request;
  const ranged = request.from !== undefined || request.to !== undefined;
  const days = ranged ? rangeDays(request.from, request.to) : undefined;
  const settings = await ports.settings(tenantId);
  const span = days ?? digestDays(request.period, now, timeZoneOf(settings));
  const reader = await user;
  const stores = storesOf(store, reader);
  const by = stores?.length === 1 ? 'employee' : 'store';
  const regionReader = store === undefined && reader.scope !== 'all' && (reader.scope.regions?.length ?? 0) > 0;
  const at = (
    { from, to }: { from: string; to: string },
    journey: string,
    group_by: 'journey' | 'store' | 'employee' | 'region' | 'week',
  ) => ports.report(tenantId, { journey, from, to, group_by, ...(store !== undefined ? { store } : {}) }, user);
  const journeys = await Promise.all(
    settings.journeys.map(async (journey): Promise<JourneyDigest> => {
      const slug = journey.slug;
      const [current, before, storeRows, employees, regions] = await Promise.all([
        at(span, slug, 'journey'),
        at(span.previous, slug, 'journey'),
        at(span, slug, 'store'),
        by === 'employee' ? at(span, slug, 'employee') : undefined,
        regionReader ? at(span, slug, 'region') : undefined,
      ]);
      const row = current.data[0];
      const last = before.data[0];
      const listed = await withoutAnswers(ports, tenantId, { rows: storeRows.data.map(scopeRow), stores });
      const ordered = byAttention(listed);
      return {
        journey: { id: journey.id, slug, name: journey.name ?? slug, indicator: journey.indicator },
        score: scoreOf(row),
        ci95: row?.nps ? [row.nps.ci95[0], row.nps.ci95[1]] : null,
        previous_score: scoreOf(last),
        change: changeOf(row?.nps ?? null, last?.nps ?? null),
        responses: row?.responses ?? 0,
        sent: row?.sent ?? 0,
        response_rate: row?.response_rate ?? null,
        recovery_answers: row?.cases.recovery_answers ?? 0,
        recovery_rate: row?.cases.recovery_rate ?? null,
        ranked_by: by,
        ranking: rankingOf((employees ?? storeRows).data),
        regions: regions ? byAttention(readerRegions(regions.data, reader, settings)) : [],
        stores: ordered.slice(0, DIGEST_STORES),
        more_stores: Math.max(0, ordered.length - DIGEST_STORES),
      };
    }),
  );
  const answered = journeys.some((j) => j.responses > 0);
  const [cases, themes, lastWeeks] = await Promise.all([
    casesOf(ports, tenantId, { stores, now: request.readAt ?? now }),
    answered ? themesOf(ports, request, { settings, days: span, stores, user }) : { themes: [], praise: [] },
    answered ? [] : quietWeeks(ports, tenantId, { settings, days: span, store, user }),
  ]);
  const first = answered ? await firstAction(ports, request, { settings, days: span, journeys, user }) : undefined;
  const oldest = [...cases.overdue].sort((a, b) => a.due_at.localeCompare(b.due_at))[0];
  return {
    period: days ? periodOfDays(days) : request.period,
    ...span,
    store: store ?? null,
    first: first ?? (oldest ? { kind: 'case', case: oldest, link: oldest.link } : { kind: 'none' }),
    journeys,
    answered,
    last_weeks: lastWeeks,
    cases,
    ...themes,
  };
}

/** A reader's stores that had no answers in the period are listed too (by name, one batched read), after the others. */
async function withoutAnswers(ports: DigestPorts, tenantId: number, { rows, stores }: { rows: ScopeRow[]; stores: number[] | undefined }) {
  if (!stores) return rows;
  const missing = stores.filter((id) => !rows.some((r) => r.id === id));
  if (!missing.length) return rows;
  const names = await ports.storeNames(tenantId, missing);
  return [
    ...rows,
    ...missing.map((id) => ({ id, name: names.get(id) ?? String(id), answers: 0, score: null, change: null, attention: false })),
  ];
}

/** The region rows of the reader's own regions and their child regions (a row of another region would count part of it). */
function readerRegions(rows: readonly Row[], reader: UserRecord, settings: Settings): ScopeRow[] {
  if (reader.scope === 'all') return [];
  const regions = settings.regions ?? [];
  const mine = new Set(storesOfRegions(regions, reader.scope.regions ?? []));
  return rows.map(scopeRow).filter((r) => storesOfRegions(regions, [r.id]).every((id) => mine.has(id)));
}

/** A count's estimate with its 95% interval (the Poisson score interval): two counts compare as two estimates do. */
const countEstimate = (n: number) => {
  const half = 1.96 * Math.sqrt(n + 0.96);
  return { value: n, low: Math.max(0, n + 1.92 - half), high: n + 1.92 + half };
};

/** Whether `now` mentions are more than `before` beyond chance: the interval of their difference excludes zero. */
export function roseBeyondChance(now: number, before: number): boolean {
  const change = countsChange(countEstimate(now), countEstimate(before));
  return change.significant && change.value > 0;
}

/** The reader's answers page of one store's comments on one theme. */
const themeLink = (ports: DigestPorts, { store, theme, days }: { store: number; theme: string; days: DigestDays }) =>
  `${ports.baseUrl}${APP_ANSWERS_PATH}?${new URLSearchParams({ store: String(store), theme, from: days.from, to: days.to })}`;

/**
 * The first line: of the stores with answers (DIGEST_FIRST_STORES with the most, a bounded read), the store and theme
 * with the most negative mentions among those that rose beyond chance; undefined when none rose.
 */
async function firstAction(
  ports: DigestPorts,
  { tenantId }: DigestRequest,
  { settings, days, journeys, user }: { settings: Settings; days: DigestDays; journeys: JourneyDigest[]; user: Promise<UserRecord> },
): Promise<FirstAction | undefined> {
  const answers = new Map<number, { name: string; responses: number }>();
  for (const row of journeys.flatMap((j) => j.stores))
    answers.set(row.id, { name: row.name, responses: (answers.get(row.id)?.responses ?? 0) + row.answers });
  const read = [...answers]
    .filter(([, s]) => s.responses > 0)
    .sort((a, b) => b[1].responses - a[1].responses)
    .slice(0, DIGEST_FIRST_STORES);
  const candidates = await Promise.all(
    read.map(async ([store, { name }]) => {
      const reports = await Promise.all(
        settings.journeys.map((j) => ports.themes.report(tenantId, { journey: j.slug, from: days.from, to: days.to, store }, user)),
      );
      return sumThemes(reports.map((r) => r.data))
        .filter((t) => roseBeyondChance(t.negative, t.previous_negative))
        .map((t) => ({ store, name, ...t }));
    }),
  );
  const best = candidates.flat().sort((a, b) => b.negative - a.negative || a.store - b.store || a.theme.localeCompare(b.theme))[0];
  if (!best) return undefined;
  return {
    kind: 'theme',
    store_id: best.store,
    store: best.name,
    theme: best.theme,
    name: best.themeName,
    negative: best.negative,
    previous_negative: best.previous_negative,
    link: themeLink(ports, { store: best.store, theme: best.theme, days }),
  };
}

type ThemeCounts = { theme: string; name: string; negative: number; positive: number; previous_negative: number };

/** The themes' counts summed over the journeys' reports. */
function sumThemes(reports: readonly (readonly ThemeCounts[])[]) {
  const sums = new Map<string, { theme: string; themeName: string; negative: number; positive: number; previous_negative: number }>();
  for (const row of reports.flat()) {
    const sum = sums.get(row.theme) ?? { theme: row.theme, themeName: row.name, negative: 0, positive: 0, previous_negative: 0 };
    sum.negative += row.negative;
    sum.positive += row.positive;
    sum.previous_negative += row.previous_negative;
    sums.set(row.theme, sum);
  }
  return [...sums.values()];
}

/**
 * The top complaints over the tenant's journeys (the theme counters, read as the themes' report reads them), each with
 * its change and up to DIGEST_EXAMPLES comments of low scores that mention it (the inbox's list: one bounded page), and
 * the most praised. A user of more stores than the themes' report reads gets none.
 */
async function themesOf(
  ports: DigestPorts,
  { tenantId, store }: DigestRequest,
  { settings, days, stores, user }: { settings: Settings; days: DigestDays; stores: number[] | undefined; user: Promise<UserRecord> },
): Promise<Pick<DigestFigures, 'themes' | 'praise'>> {
  if (stores && stores.length > MAX_SCOPED_STORES) return { themes: [], praise: [] };
  const reports = await Promise.all(
    settings.journeys.map((journey) =>
      ports.themes.report(
        tenantId,
        { journey: journey.slug, from: days.from, to: days.to, ...(store !== undefined ? { store } : {}) },
        user,
      ),
    ),
  );
  const sums = sumThemes(reports.map((report) => report.data));
  const top = topThemes(sums);
  const praise = sums
    .filter((t) => t.positive > 0)
    .sort((a, b) => b.positive - a.positive || a.theme.localeCompare(b.theme))
    .slice(0, DIGEST_THEMES)
    .map((t) => ({ theme: t.theme, name: t.themeName, positive: t.positive }));
  const lows = settings.journeys.map((j) => ({ id: j.id, scores: scoresOf(j.indicator, j.indicator === 'nps' ? 'detractor' : 'low')! }));
  const themes = await Promise.all(
    top.map(async (theme): Promise<DigestTheme> => {
      const { answers } = await ports.themes.answers.list({
        tenantId,
        ...(stores ? { stores } : {}),
        from: days.from,
        to: days.to,
        journeys: lows,
        theme: theme.theme,
        hasComment: true,
        limit: DIGEST_EXAMPLES_READ,
        query: JSON.stringify(['digest-theme', tenantId, stores ?? 'all', theme.theme]),
      });
      // Never the same words twice (two customers, or two comments redacted alike).
      const examples = distinctTexts(
        answers.flatMap((a) => (a.comment?.trim() ? [exampleOf(a.comment)] : [])),
        DIGEST_EXAMPLES,
      );
      return {
        theme: theme.theme,
        name: theme.themeName,
        negative: theme.negative,
        previous_negative: theme.previous_negative,
        rose: roseBeyondChance(theme.negative, theme.previous_negative),
        examples,
      };
    }),
  );
  return { themes, praise };
}

/** The themes with negative mentions, most first (then by slug), DIGEST_THEMES of them. */
export function topThemes<T extends { theme: string; negative: number }>(sums: readonly T[]): T[] {
  return [...sums]
    .filter((t) => t.negative > 0)
    .sort((a, b) => b.negative - a.negative || a.theme.localeCompare(b.theme))
    .slice(0, DIGEST_THEMES);
}

/** A comment as a digest quotes it: what identifies a person taken out, on one line, cut to DIGEST_EXAMPLE_CHARACTERS. */
export const exampleOf = (comment: string): string => excerpt(comment, DIGEST_EXAMPLE_CHARACTERS);

/**
 * A period without answers: the last weeks before it that had any (up to DIGEST_QUIET_WEEKS, looked for in the
 * DIGEST_LOOKBACK_WEEKS before it: one week report per journey), most recent first.
 */
async function quietWeeks(
  ports: DigestPorts,
  tenantId: number,
  { settings, days, store, user }: { settings: Settings; days: DigestDays; store: number | undefined; user: Promise<UserRecord> },
): Promise<DigestFigures['last_weeks']> {
  const to = addDays(days.from, -1);
  const from = weekOf(addDays(to, -7 * DIGEST_LOOKBACK_WEEKS + 1));
  const reports = await Promise.all(
    settings.journeys.map((j) =>
      ports.report(tenantId, { journey: j.slug, from, to, group_by: 'week', ...(store !== undefined ? { store } : {}) }, user),
    ),
  );
  const weeks = new Map<string, number>();
  for (const row of reports.flatMap((r) => r.data)) weeks.set(row.key, (weeks.get(row.key) ?? 0) + row.responses);
  return [...weeks]
    .filter(([, responses]) => responses > 0)
    .sort((a, b) => b[0].localeCompare(a[0]))
    .slice(0, DIGEST_QUIET_WEEKS)
    .map(([week, answers]) => ({ from: week, to: addDays(week, 6), answers }));
}

/** The overdue cases still open (newest overdue first) and the open ones (first due first), a page of each, with their stores' names. */
async function casesOf(
  ports: DigestPorts,
  tenantId: number,
  { stores, now }: { stores: number[] | undefined; now: Date },
): Promise<DigestFigures['cases']> {
  const select = (filter: Partial<CaseSelection>): CaseSelection => ({
    tenantId,
    ...(stores ? { stores } : {}),
    ...filter,
    limit: DIGEST_CASES,
    query: JSON.stringify(['digest', tenantId, stores ?? 'all', filter]),
  });
  const [open, overdue] = await Promise.all([ports.cases.list(select({ status: 'open' })), ports.cases.list(select({ overdue: true }))]);
  const late = overdue.cases.filter((c) => !CLOSED_STATUSES.includes(c.status));
  const names = await ports.storeNames(tenantId, [...new Set([...open.cases, ...late].map((c) => c.storeId))]);
  const link = (c: CaseRecord): DigestCase => ({
    id: c.id,
    number: c.number,
    store_id: c.storeId,
    store: names.get(c.storeId) ?? String(c.storeId),
    score: c.score,
    status: c.status,
    overdue: c.overdue,
    opened_at: c.openedAt,
    age_days: Math.max(0, Math.floor((now.getTime() - Date.parse(c.openedAt)) / 86_400_000)),
    due_at: c.dueAt,
    owner: c.owner,
    link: `${ports.baseUrl}${appCasePath(c.id)}`,
  });
  return {
    open: open.cases.filter((c) => !c.overdue).map(link),
    overdue: late.map(link).sort((a, b) => b.due_at.localeCompare(a.due_at)),
    more: open.nextCursor !== null || overdue.nextCursor !== null,
  };
}
