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
import { redact } from '../themes/redact.js';

/**
 * A digest's figures (issue 48): for the stores a user may see, each journey's score against the period before (and
 * whether the change is beyond chance), answers and response rate, the recovery rate, the best and worst stores (or
 * employees, for one store), and the open and overdue cases. Every figure is a report of the results service, read
 * in the user's scope as GET /public/results reads it, so the two always agree.
 */

export const DIGEST_PERIODS = ['week', 'day'] as const;
export type DigestPeriod = (typeof DIGEST_PERIODS)[number];

/** How many rows a digest names at either end of a ranking, and how many cases of each list. */
export const DIGEST_RANKED = 3;
export const DIGEST_CASES = 10;
/** How many themes a digest names (those most mentioned by detractors), and how long an example's words may be. */
export const DIGEST_THEMES = 3;
export const DIGEST_EXAMPLE_CHARACTERS = 200;

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
}

export interface DigestCase {
  id: number;
  store_id: number;
  score: number;
  status: string;
  overdue: boolean;
  due_at: string;
  /** The case's page in the workspace. */
  link: string;
}

/** A theme among the period's detractors (the low scores on other scales), with the newest such comment. */
export interface DigestTheme {
  theme: string;
  /** In the tenant's language. */
  name: string;
  /** Detractors' comments that mention it, over every journey. */
  detractors: number;
  /** One of those comments, redacted (no e-mail, card, CPF or phone) and cut; null when none is listed any more. */
  example: string | null;
}

export interface DigestFigures {
  period: DigestPeriod;
  from: string;
  to: string;
  previous: { from: string; to: string };
  store: number | null;
  journeys: JourneyDigest[];
  cases: { open: DigestCase[]; overdue: DigestCase[]; more: boolean };
  /** The top themes among detractors; empty when no comment was analysed (or the scope is too wide to read them). */
  themes: DigestTheme[];
}

export interface DigestPorts {
  report: ResultsService['report'];
  settings: (tenantId: number) => Promise<Settings>;
  cases: Pick<CaseStore, 'list'>;
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
  now: Date;
}

/** The digest of `user` (its scope as results read it: a store outside it is a 404 there, and so here). */
export async function digestFigures(ports: DigestPorts, request: DigestRequest, user: Promise<UserRecord>): Promise<DigestFigures> {
  user.catch(() => undefined);
  const { tenantId, period, store, now } = request;
  const settings = await ports.settings(tenantId);
  const days = digestDays(period, now, timeZoneOf(settings));
  const { scope } = await user;
  const stores = store !== undefined ? [store] : scope === 'all' ? undefined : scope.stores;
  const by = stores?.length === 1 ? 'employee' : 'store';
  const at = (from: string, to: string, journey: string, group_by: 'journey' | 'store' | 'employee') =>
    ports.report(tenantId, { journey, from, to, group_by, ...(store !== undefined ? { store } : {}) }, user);
  const journeys = await Promise.all(
    settings.journeys.map(async (journey): Promise<JourneyDigest> => {
      const slug = journey.slug;
      const [now, before, groups] = await Promise.all([
        at(days.from, days.to, slug, 'journey'),
        at(days.previous.from, days.previous.to, slug, 'journey'),
        at(days.from, days.to, slug, by),
      ]);
      const row = now.data[0];
      const last = before.data[0];
      return {
        journey: { id: journey.id, slug, name: journey.name ?? slug, indicator: journey.indicator },
        score: row ? (row.nps?.score ?? row.mean) : null,
        ci95: row?.nps ? [row.nps.ci95[0], row.nps.ci95[1]] : null,
        previous_score: last ? (last.nps?.score ?? last.mean) : null,
        change: changeOf(row?.nps ?? null, last?.nps ?? null),
        responses: row?.responses ?? 0,
        sent: row?.sent ?? 0,
        response_rate: row?.response_rate ?? null,
        recovery_answers: row?.cases.recovery_answers ?? 0,
        recovery_rate: row?.cases.recovery_rate ?? null,
        ranked_by: by,
        ranking: rankingOf(groups.data),
      };
    }),
  );
  const [cases, themes] = await Promise.all([casesOf(ports, tenantId, stores), themesOf(ports, request, settings, days, stores, user)]);
  return { period, ...days, store: store ?? null, journeys, cases, themes };
}

/**
 * The themes most mentioned by detractors over the tenant's journeys (the theme counters, read as the themes' report
 * reads them), and for each the newest detractor's comment of the period that mentions it (the inbox's list of the
 * theme's answers: one bounded page). A user of more stores than the themes' report reads gets none.
 */
async function themesOf(
  ports: DigestPorts,
  { tenantId, store }: DigestRequest,
  settings: Settings,
  days: DigestDays,
  stores: number[] | undefined,
  user: Promise<UserRecord>,
): Promise<DigestTheme[]> {
  if (stores && stores.length > MAX_SCOPED_STORES) return [];
  const reports = await Promise.all(
    settings.journeys.map((journey) =>
      ports.themes.report(
        tenantId,
        { journey: journey.slug, from: days.from, to: days.to, ...(store !== undefined ? { store } : {}) },
        user,
      ),
    ),
  );
  const top = topThemes(reports.map((report) => report.data));
  const lows = settings.journeys.map((j) => ({ id: j.id, scores: scoresOf(j.indicator, j.indicator === 'nps' ? 'detractor' : 'low')! }));
  return Promise.all(
    top.map(async (theme): Promise<DigestTheme> => {
      const { answers } = await ports.themes.answers.list({
        tenantId,
        ...(stores ? { stores } : {}),
        from: days.from,
        to: days.to,
        journeys: lows,
        theme: theme.theme,
        limit: 1,
        query: JSON.stringify(['digest-theme', tenantId, stores ?? 'all', theme.theme]),
      });
      const comment = answers[0]?.comment;
      return { ...theme, example: comment ? exampleOf(comment) : null };
    }),
  );
}

/** The themes with detractors, summed over the journeys' reports, most first (then by slug), DIGEST_THEMES of them. */
export function topThemes(reports: readonly (readonly { theme: string; name: string; detractors: number }[])[]) {
  const sums = new Map<string, { theme: string; name: string; detractors: number }>();
  for (const row of reports.flat()) {
    const sum = sums.get(row.theme) ?? { theme: row.theme, name: row.name, detractors: 0 };
    sum.detractors += row.detractors;
    sums.set(row.theme, sum);
  }
  return [...sums.values()]
    .filter((t) => t.detractors > 0)
    .sort((a, b) => b.detractors - a.detractors || a.theme.localeCompare(b.theme))
    .slice(0, DIGEST_THEMES);
}

/** A comment as a digest quotes it: what identifies a person taken out, on one line, cut to DIGEST_EXAMPLE_CHARACTERS. */
export function exampleOf(comment: string): string {
  const line = redact(comment).replace(/\s+/g, ' ').trim();
  return line.length > DIGEST_EXAMPLE_CHARACTERS ? `${line.slice(0, DIGEST_EXAMPLE_CHARACTERS - 1)}…` : line;
}

/** The open cases (first due first) and the overdue ones still open, a page of each, with their links. */
async function casesOf(ports: DigestPorts, tenantId: number, stores: number[] | undefined): Promise<DigestFigures['cases']> {
  const select = (filter: Partial<CaseSelection>): CaseSelection => ({
    tenantId,
    ...(stores ? { stores } : {}),
    ...filter,
    limit: DIGEST_CASES,
    query: JSON.stringify(['digest', tenantId, stores ?? 'all', filter]),
  });
  const [open, overdue] = await Promise.all([ports.cases.list(select({ status: 'open' })), ports.cases.list(select({ overdue: true }))]);
  const link = (c: CaseRecord): DigestCase => ({
    id: c.id,
    store_id: c.storeId,
    score: c.score,
    status: c.status,
    overdue: c.overdue,
    due_at: c.dueAt,
    link: `${ports.baseUrl}${appCasePath(c.id)}`,
  });
  return {
    open: open.cases.map(link),
    overdue: overdue.cases.filter((c) => !CLOSED_STATUSES.includes(c.status)).map(link),
    more: open.nextCursor !== null || overdue.nextCursor !== null,
  };
}
