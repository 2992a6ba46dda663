import { html, raw, type SafeHtml } from '../html.js';
import { workspaceTranslator, type Translate, type WorkspaceKey } from '../i18n/messages.js';
import type { Locale } from '../locale.js';
import { addDays, CALENDAR, daysIn, MAX_PERIOD_DAYS, periodBefore, periodEnding, periodFault, type PeriodFault } from '../dates.js';
import type { Report } from '../results/service.js';
import type { CaseFigures, ResultRow } from '../results/report.js';
import { periodKeys, TIME_GROUPINGS, type TimeGrouping } from '../results/groupings.js';
import type { RegionConfig } from '../regions.js';
import type { ResultsQuery } from '../results/schema.js';
import { RESULT_SOURCES, type ResultSource } from '../results/sources.js';
import type { JourneyConfig } from '../settings/journeys.js';
import type { Settings } from '../settings/settings.js';
import type { UserRecord } from '../access/ports.js';
import { adminHome } from './admin-sections.js';
import { APP_ANSWERS_PATH, APP_RESULTS_PATH } from '../session/paths.js';
import type { WebAnswer } from '../web-answer.js';
import { layout, tenantLookOf } from './layout.js';
import { timesOf } from '../i18n/times.js';
import { indicatorWords } from './words.js';
import type { ThemeIntervalBody, ThemeReportBody, ThemeRowBody } from '../themes/report.js';
import type { ThemeExampleQuery } from '../answers/theme-examples.js';
import type { DriversReportBody } from '../results/drivers-report.js';

/** What the results page reads: the tenant's journeys and language, and the results service's report, as the signed-in user. */
export interface ResultsPagePorts {
  settings(tenantId: number): Promise<Pick<Settings, 'journeys' | 'locale' | 'timeZone' | 'brand' | 'regions'>>;
  report(tenantId: number, query: ResultsQuery, user: Promise<UserRecord>): Promise<Report>;
  /** The themes of the journey's comments (GET /public/results?group_by=theme's report). */
  themes(tenantId: number, query: Omit<ResultsQuery, 'group_by'>, user: Promise<UserRecord>): Promise<ThemeReportBody>;
  /** The items that move the score (GET /public/results?group_by=driver's report), for a journey that rates items. */
  drivers(tenantId: number, query: Omit<ResultsQuery, 'group_by'>, user: Promise<UserRecord>): Promise<DriversReportBody>;
  /** The newest example comments of each theme and polarity asked, redacted, keyed `<theme>:<polarity>` (`answers/theme-examples.ts`). */
  examples(tenantId: number, query: ThemeExampleQuery, user: Promise<UserRecord>): Promise<Map<string, string[]>>;
}

export interface ResultsPageRequest {
  tenantId: number;
  user: UserRecord;
  base: string;
  query: Record<string, string | undefined>;
  today: string;
}

const DEFAULT_DAYS = 30;
/** The weeks of a theme's line on the page, and how many themes each of its lists (complaints, praise) names. */
const LINE_WEEKS = 12;
const LISTED_THEMES = 5;
/** Up to this many days the trend is drawn by day unless the user picks another grouping; beyond it, by week. */
const DAILY_TREND_DAYS = 62;
/** The date rule's problems (shared/dates.ts), by the words that say them. */
const PERIOD_PROBLEM: Record<PeriodFault, WorkspaceKey> = {
  date: 'results.problem.dates',
  order: 'results.problem.order',
  span: 'results.problem.period',
};

/** The words and number formats of a language, made at its first use in a container. */
interface Words {
  t: Translate<WorkspaceKey>;
  locale: Locale;
  number(value: number): string;
  signed(value: number): string;
  percent(value: number): string;
  /** A day (YYYY-MM-DD) as the language writes it. */
  day(day: string): string;
}
const made = new Map<Locale, Words>();
function wordsOf(locale: Locale): Words {
  const found = made.get(locale);
  if (found) return found;
  // Days are calendar dates: the same in every zone.
  const { day } = timesOf(locale, 'UTC');
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const signed = new Intl.NumberFormat(locale, { maximumFractionDigits: 1, signDisplay: 'exceptZero' });
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  const words = {
    t: workspaceTranslator(locale),
    locale,
    number: (value: number) => number.format(value),
    signed: (value: number) => signed.format(value),
    percent: (value: number) => percent.format(value),
    day,
  };
  made.set(locale, words);
  return words;
}

/** A row's headline figure: the NPS for an NPS journey, else the mean score. */
const figure = (row: ResultRow | undefined): number | null => (row ? (row.nps ? row.nps.score : row.mean) : null);
const shown = (w: Words, value: number | null) => (value === null ? '–' : w.number(value));
/** Responses to this row's question over the surveys that asked it (a rated item's own, not the survey's). */
const rate = (w: Words, row: ResultRow) => (row.asked_response_rate === null ? '–' : w.percent(row.asked_response_rate));

/**
 * The results page of the workspace: the journey's headline figure, answers, sends and response rate for the period,
 * each against the period of equal length just before it; the trend; stores, employees and the journey's classes
 * ranked. Everything is read as the signed-in user: a user limited to some stores sees only those.
 */
export function resultsPage(ports: ResultsPagePorts) {
  return async function showResults({ tenantId, user, base, query, today }: ResultsPageRequest): Promise<WebAnswer> {
    const settings = await ports.settings(tenantId);
    const journeys = settings.journeys;
    const look = tenantLookOf(settings);
    const w = wordsOf(look.locale);
    const { t } = w;
    const journey = journeys.find((j) => j.slug === query.journey || String(j.id) === query.journey) ?? journeys[0];
    const to = query.to || today;
    const from = query.from || periodEnding(to, DEFAULT_DAYS);
    const problems: string[] = [];
    if (query.journey && journey?.slug !== query.journey && String(journey?.id) !== query.journey)
      problems.push(t('results.problem.journey'));
    const fault = periodFault(from, to);
    if (fault)
      problems.push(t(PERIOD_PROBLEM[fault], { min: CALENDAR.minYear, max: fault === 'span' ? MAX_PERIOD_DAYS : CALENDAR.maxYear }));
    const days = daysIn(from, to);
    const by: TimeGrouping = TIME_GROUPINGS.find((g) => g === query.by) ?? (days > DAILY_TREND_DAYS ? 'week' : 'day');
    const regions = settings.regions ?? [];
    // The region the page is narrowed to (its stores and its sub-regions'); an unknown one is ignored.
    const region = regions.find((r) => String(r.id) === query.region)?.id;
    // The source the page is narrowed to (its answers alone); an unknown one is ignored.
    const source = RESULT_SOURCES.find((s) => s === query.source);
    const form = filters(t, { base, journeys, chosen: journey?.slug, from, to, by, regions: { regions, chosen: region }, source });
    const page = (status: number, body: SafeHtml): WebAnswer => ({
      status,
      html: layout({
        title: t('results.title'),
        base,
        locale: look.locale,
        brand: look.brand,
        user: user.name,
        adminHome: adminHome(user),
        current: APP_RESULTS_PATH,
        body,
        scripts: status === 200 ? ['chart.umd.min.js', 'app.js'] : [],
      }),
    });
    if (!journey) return page(200, html`<h1>${t('results.title')}</h1><p>${t('results.noJourney')}</p>`);
    if (problems.length)
      return page(
        400,
        html`<h1>${t('results.title')}</h1>${form}<div class="error" role="alert">${problems.map((p) => html`<p>${p}</p>`)}</div>`,
      );

    const before = periodBefore(from, to);
    const asUser = Promise.resolve(user);
    const read = (groupBy: ResultsQuery['group_by'], range = { from, to }) =>
      ports.report(
        tenantId,
        { journey: journey.slug, ...range, group_by: groupBy, ...(region ? { region } : {}), ...(source ? { source } : {}) },
        asUser,
      );
    const themesOf = (range: { from: string; to: string }, interval?: 'week') =>
      ports.themes(tenantId, { journey: journey.slug, ...range, ...(region ? { region } : {}), ...(interval ? { interval } : {}) }, asUser);
    const [current, previous, trend, stores, employees, classes, themes, byRegion, drivers, lines] = await Promise.all([
      read('journey'),
      // No period before one that starts at the calendar's first year.
      before && read('journey', before),
      read(by),
      read('store'),
      read('employee'),
      read('class'),
      themesOf({ from, to }),
      regions.length ? read('region') : undefined,
      // Drivers count every source's answers: none when the page is narrowed to one.
      journey.classes.length && !source
        ? ports.drivers(tenantId, { journey: journey.slug, from, to, ...(region ? { region } : {}) }, asUser)
        : undefined,
      // Each theme's line: the 12 weeks to the period's last day (7 days each, counted back from it).
      themesOf(
        { from: addDays(to, -7 * LINE_WEEKS + 1) < `${CALENDAR.minYear}-01-01` ? from : addDays(to, -7 * LINE_WEEKS + 1), to },
        'week',
      ),
    ]);
    const [complaints, praise] = listedThemes(themes);
    const examples = await ports.examples(
      tenantId,
      {
        journey: journey.slug,
        from,
        to,
        region,
        wanted: [
          ...complaints.map((row) => ({ theme: row.theme, polarity: 'negative' as const })),
          ...praise.map((row) => ({ theme: row.theme, polarity: 'positive' as const })),
        ],
      },
      asUser,
    );
    const nps = journey.indicator === 'nps';
    // A store's or an employee's name opens its answers in the inbox, for the same journey and period.
    const narrowed: Record<string, string> = region ? { region: String(region) } : {};
    const answersOf = (filter: 'store' | 'employee') => (row: ResultRow) =>
      `${base}${APP_ANSWERS_PATH}?${new URLSearchParams({ journey: journey.slug, [filter]: row.key, from, to, ...narrowed })}`;
    const body = html`<h1>${t('results.title')}</h1>${form}
<section aria-labelledby="summary-title"><h2 id="summary-title">${t('results.summary', { from: w.day(from), to: w.day(to) })}</h2>
${summary({ w, nps, row: current.data[0], previous: previous && before && { row: previous.data[0], ...before } })}
${sourceSplit(w, current.data[0])}</section>
${trendFigure({ w, nps, trend, by })}
${byRegion ? ranking({ w, id: 'regions', title: t('results.regions'), what: t('results.region'), caption: t('results.regions.caption'), nps, report: byRegion }) : ''}
${ranking({ w, id: 'stores', title: t('results.stores'), what: t('results.store'), caption: t('results.stores.caption'), nps, report: stores, linkOf: answersOf('store'), ranked: true })}
${ranking({ w, id: 'employees', title: t('results.employees'), what: t('results.employee'), caption: t('results.employees.caption'), nps, report: employees, linkOf: answersOf('employee'), ranked: true })}
${ranking({ w, id: 'classes', title: t('results.classes'), what: t('results.class'), caption: t('results.classes.caption'), nps: false, report: classes, score: t('results.score'), asked: t('results.askedShort') })}
${drivers ? driverSection(w, drivers) : ''}
${themeSection({ w, nps, reads: { report: themes, lines, examples, to }, narrowed: source !== undefined, answersOf: (theme) => `${base}${APP_ANSWERS_PATH}?${new URLSearchParams({ journey: journey.slug, theme, from, to, ...narrowed })}` })}
${caseFigures({ w, id: 'store-cases', title: t('results.storeCases'), what: t('results.store'), report: stores })}
${caseFigures({ w, id: 'employee-cases', title: t('results.employeeCases'), what: t('results.employee'), report: employees })}`;
    return page(200, body);
  };
}

/**
 * The Themes section: each theme of the period's comments, by how much it drags the score down (the report's order),
 * with its comments, its share among detractors, passives and promoters (low, middle, high on other scales), its score
 * and its change; a theme's name opens its answers in the inbox.
 */
function themeTable({
  w,
  nps,
  report,
  answersOf,
}: {
  w: Words;
  nps: boolean;
  report: ThemeReportBody;
  answersOf: (theme: string) => string;
}) {
  const { t } = w;
  const [low, mid, high] = nps ? (['detractor', 'passive', 'promoter'] as const) : (['low', 'mid', 'high'] as const);
  const share = (n: number, of: number) => (of ? w.percent(n / of) : '–');
  const headers = [
    t('results.theme'),
    t('results.comments'),
    t(`answers.bucket.${low}`),
    t(`answers.bucket.${mid}`),
    t(`answers.bucket.${high}`),
    nps ? t('results.nps') : t('results.mean'),
    t('results.themes.change'),
  ];
  // On a phone each row stacks as a card, its cells labelled, as the other tables of the page.
  const rows = report.data.map(
    (row) =>
      html`<tr><th scope="row"><a href="${answersOf(row.theme)}">${row.name}</a></th>${[
        w.number(row.comments),
        share(row.detractors, row.comments),
        share(row.passives, row.comments),
        share(row.promoters, row.comments),
        shown(w, row.score),
        row.change === null ? '–' : w.signed(row.change),
      ].map((cell, i) => html`<td data-label="${headers[i + 1]!}">${cell}</td>`)}</tr>`,
  );
  return html`<h3>${t('results.themes.all')}</h3>
<div class="table-wrap"><table id="themes" class="cards"><caption>${t('results.themes.caption')}</caption><thead><tr>${headers.map((header) => html`<th scope="col">${header}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** The themes the section names: those with complaints, most first (the report's order), and those with praise, most first. */
function listedThemes(report: ThemeReportBody): [ThemeRowBody[], ThemeRowBody[]] {
  const complaints = report.data.filter((row) => row.negative > 0).slice(0, LISTED_THEMES);
  const praise = report.data
    .filter((row) => row.positive > 0)
    .sort((a, b) => b.positive - a.positive || a.theme.localeCompare(b.theme))
    .slice(0, LISTED_THEMES);
  return [complaints, praise];
}

interface ThemeReads {
  report: ThemeReportBody;
  /** The 12 weeks' report (`interval=week`), whose rows carry each theme's line. */
  lines: ThemeReportBody;
  examples: Map<string, string[]>;
  to: string;
}

/**
 * The Themes section: what customers complain about and what they praise, each theme with its mentions of that
 * polarity, their change against the period before, its line over the last 12 weeks (bars, with the counts in words),
 * the last week's change and the two newest comments that say so (redacted); then every theme's figures in a table.
 * Lists and small bars: a phone reads it without sideways scrolling.
 */
function themeSection({
  w,
  nps,
  reads,
  narrowed,
  answersOf,
}: {
  w: Words;
  nps: boolean;
  reads: ThemeReads;
  narrowed: boolean;
  answersOf: (theme: string) => string;
}) {
  const { t } = w;
  const [complaints, praise] = listedThemes(reads.report);
  const lineOf = new Map(reads.lines.data.map((row) => [row.theme, row.intervals ?? []]));
  const list = ({
    id,
    title,
    rows,
    polarity,
    none,
  }: {
    id: string;
    title: string;
    rows: ThemeRowBody[];
    polarity: 'negative' | 'positive';
    none: string;
  }) =>
    html`<div class="theme-list" id="${id}"><h3>${title}</h3>${
      rows.length
        ? html`<ol>${rows.map((row) => themeItem({ w, row, line: lineOf.get(row.theme) ?? [], reads, polarity, answersOf }))}</ol>`
        : html`<p>${none}</p>`
    }</div>`;
  return html`<section aria-labelledby="themes-title"><h2 id="themes-title">${t('results.themes')}</h2>
${narrowed && html`<p>${t('results.themes.everySource')}</p>`}
${
  reads.report.data.length
    ? html`<div class="theme-lists">${list({ id: 'complaints', title: t('results.themes.complaints'), rows: complaints, polarity: 'negative', none: t('results.themes.noComplaints') })}
${list({ id: 'praise', title: t('results.themes.praise'), rows: praise, polarity: 'positive', none: t('results.themes.noPraise') })}</div>
${themeTable({ w, nps, report: reads.report, answersOf })}`
    : html`<p>${t('results.themes.none')}</p>`
}</section>`;
}

const NO_DRIVERS: Record<NonNullable<DriversReportBody['reason']>, WorkspaceKey> = {
  too_few_answers: 'results.drivers.tooFew',
  no_variation: 'results.drivers.noVariation',
  collinear: 'results.drivers.collinear',
};

/**
 * "What moves the score": the item to improve first named in words (`first_to_improve`, the rule in
 * shared/results/drivers.ts), the model's R², and a table of the items, most important first, with their importance
 * (share of what the items explain), performance (mean of the scale's top) and whether they move the score beyond
 * chance; on a phone each row stacks as a card. Under the minimum sample, the reason instead.
 */
function driverSection(w: Words, report: DriversReportBody) {
  const { t } = w;
  const title = html`<h2 id="drivers-title">${t('results.drivers')}</h2>`;
  if (report.reason)
    return html`<section aria-labelledby="drivers-title">${title}<p>${t(NO_DRIVERS[report.reason], { min: w.number(report.min_answers), n: w.number(report.answers) })}</p></section>`;
  const first = report.data.find((row) => row.key === report.first_to_improve);
  const headers = [
    t('results.drivers.item'),
    t('results.drivers.importance'),
    t('results.drivers.performance'),
    t('results.drivers.beyondChance'),
  ];
  const outOf = (row: DriversReportBody['data'][number]) =>
    t('results.drivers.outOf', { mean: w.number(row.performance), max: w.number(row.scale.max) });
  const rows = report.data.map(
    (row) =>
      html`<tr${row.key === report.first_to_improve ? raw(' class="first"') : ''}><th scope="row">${row.label}</th>${[
        w.percent(row.share),
        outOf(row),
        row.beyond_chance ? t('results.drivers.yes') : t('results.drivers.no'),
      ].map((cell, i) => html`<td data-label="${headers[i + 1]!}">${cell}</td>`)}</tr>`,
  );
  return html`<section aria-labelledby="drivers-title">${title}
<p class="lead">${first ? t('results.drivers.first', { item: first.label, share: w.percent(first.share), mean: w.number(first.performance), max: w.number(first.scale.max) }) : t('results.drivers.noneBeyond')}</p>
<p>${t('results.drivers.model', { r2: w.percent(report.r2 ?? 0), n: w.number(report.answers) })}</p>
<div class="table-wrap"><table id="drivers" class="cards"><caption>${t('results.drivers.caption')}</caption><thead><tr>${headers.map((header) => html`<th scope="col">${header}</th>`)}</tr></thead><tbody>${rows}</tbody></table></div>
<p class="hint">${t('results.drivers.method')}</p></section>`;
}

function themeItem({
  w,
  row,
  line,
  reads,
  polarity,
  answersOf,
}: {
  w: Words;
  row: ThemeRowBody;
  line: ThemeIntervalBody[];
  reads: ThemeReads;
  polarity: 'negative' | 'positive';
  answersOf: (theme: string) => string;
}) {
  const { t } = w;
  const count = polarity === 'negative' ? row.negative : row.positive;
  const change = polarity === 'negative' ? row.negative_change : row.positive_change;
  const last = line.at(-1);
  const lastChange = last && (polarity === 'negative' ? last.negative_change : last.positive_change);
  const examples = reads.examples.get(`${row.theme}:${polarity}`) ?? [];
  return html`<li class="theme-item"><p class="theme-head"><a href="${answersOf(row.theme)}">${row.name}</a> <span>${t(
    polarity === 'negative' ? 'results.themes.negativeCount' : 'results.themes.positiveCount',
    { count },
  )}</span></p>
<p>${t('results.themes.vsBefore', { change: changeOf(w, change) })}</p>
${line.length ? sparkline({ w, line, polarity, to: reads.to }) : ''}
${lastChange ? html`<p>${t('results.themes.lastWeek', { change: changeOf(w, lastChange) })}</p>` : ''}
${
  examples.length
    ? html`<ul class="examples" aria-label="${t('results.themes.examples')}">${examples.map((text) => html`<li><q>${text}</q></li>`)}</ul>`
    : html`<p class="muted">${t('results.themes.noExamples')}</p>`
}</li>`;
}

/** A theme's weeks as small bars (an image named by its counts in words: what a screen reader reads). */
function sparkline({ w, line, polarity, to }: { w: Words; line: ThemeIntervalBody[]; polarity: 'negative' | 'positive'; to: string }) {
  const counts = line.map((point) => point[polarity]);
  const top = Math.max(1, ...counts);
  const [width, height, gap] = [8, 24, 2];
  const label = w.t(polarity === 'negative' ? 'results.themes.lineNegative' : 'results.themes.linePositive', {
    to: w.day(to),
    counts: counts.map((n) => w.number(n)).join(', '),
  });
  const bars = counts.map((n, i) => {
    const h = n ? Math.max(2, Math.round((n / top) * height)) : 1;
    return html`<rect x="${String(i * (width + gap))}" y="${String(height - h)}" width="${String(width)}" height="${String(h)}"></rect>`;
  });
  return html`<svg class="sparkline ${polarity}" role="img" aria-label="${label}" viewBox="0 0 ${String(counts.length * (width + gap) - gap)} ${String(height)}" width="${String(counts.length * (width + gap) - gap)}" height="${String(height)}">${bars}</svg>`;
}

function filters(
  t: Translate<WorkspaceKey>,
  {
    base,
    journeys,
    chosen,
    from,
    to,
    by,
    regions: { regions, chosen: region },
    source,
  }: {
    base: string;
    journeys: JourneyConfig[];
    chosen: string | undefined;
    from: string;
    to: string;
    by: TimeGrouping;
    regions: { regions: RegionConfig[]; chosen: number | undefined };
    source: ResultSource | undefined;
  },
) {
  const options = journeys.map(
    (j) =>
      html`<option value="${j.slug}"${j.slug === chosen && html` selected`}>${j.name ?? j.slug} · ${indicatorWords(t, j.indicator)}</option>`,
  );
  const groupings = TIME_GROUPINGS.map(
    (g) => html`<option value="${g}"${g === by && html` selected`}>${t('results.by', { by: g })}</option>`,
  );
  return html`<form method="get" action="${base + APP_RESULTS_PATH}" class="filters card">
<div class="wide"><label for="journey">${t('results.filter.journey')}</label><select id="journey" name="journey">${options}</select></div>
<div><label for="from">${t('results.filter.from')}</label><input id="from" name="from" type="date" value="${from}" required></div>
<div><label for="to">${t('results.filter.to')}</label><input id="to" name="to" type="date" value="${to}" required></div>
${
  regions.length
    ? html`<div><label for="region">${t('results.filter.region')}</label><select id="region" name="region"><option value="">${t('results.filter.allRegions')}</option>${regions.map(
        (r) => html`<option value="${String(r.id)}"${r.id === region && html` selected`}>${r.name}</option>`,
      )}</select></div>`
    : ''
}
<div><label for="source">${t('results.filter.source')}</label><select id="source" name="source"><option value="">${t('results.filter.allSources')}</option>${RESULT_SOURCES.map(
    (s) => html`<option value="${s}"${s === source && html` selected`}>${sourceName(t, s)}</option>`,
  )}</select></div>
<div><label for="by">${t('results.filter.by')}</label><select id="by" name="by">${groupings}</select></div>
<button type="submit">${t('results.filter.submit')}</button></form>`;
}

/** A source in words, short enough for the filter's select. */
const sourceName = (t: Translate<WorkspaceKey>, source: ResultSource) => t(`results.source.${source}`);

/** The period's answers by source, so that a flood of QR or kiosk answers shows. */
function sourceSplit(w: Words, row: ResultRow | undefined) {
  const split = RESULT_SOURCES.map((source) => `${sourceName(w.t, source)} ${w.number(row?.sources[source] ?? 0)}`).join(' · ');
  return html`<p id="sources">${w.t('results.sources')} ${split}</p>`;
}

/** The headline figures, each with its change against the period before (in points for NPS and means). */
function summary({
  w,
  nps,
  row,
  previous,
}: {
  w: Words;
  nps: boolean;
  row: ResultRow | undefined;
  previous: { row: ResultRow | undefined; from: string; to: string } | undefined;
}) {
  const { t } = w;
  const before = previous?.row;
  const change = (now: number | null, then: number | null, format: (n: number) => string) =>
    now === null || then === null || !previous
      ? t('results.noComparison')
      : t('results.change', { change: format(now - then), from: w.day(previous.from), to: w.day(previous.to) });
  const items: [string, string, string][] = [
    [nps ? t('results.nps') : t('results.mean'), shown(w, figure(row)), change(figure(row), figure(before), w.signed)],
    [t('results.responses'), w.number(row?.responses ?? 0), change(row?.responses ?? 0, before?.responses ?? 0, w.signed)],
    [t('results.sent'), w.number(row?.sent ?? 0), change(row?.sent ?? 0, before?.sent ?? 0, w.signed)],
    [
      t('results.rate'),
      row ? rate(w, row) : '–',
      change(row?.response_rate ?? null, before?.response_rate ?? null, (n) => t('results.points', { change: w.signed(n * 100) })),
    ],
  ];
  return html`<dl id="summary">${items.map(([term, value, delta]) => html`<div><dt>${term}</dt><dd>${value}<span class="change">${delta}</span></dd></div>`)}</dl>`;
}

/** A period's name on the chart and in its table: a day or a week's Monday as a date, a month as month and year. */
function periodName({ w, by, key, withYear }: { w: Words; by: TimeGrouping; key: string; withYear: boolean }): string {
  const options: Intl.DateTimeFormatOptions =
    by === 'month' ? { month: 'short', year: 'numeric' } : { day: 'numeric', month: 'short', ...(withYear && { year: 'numeric' }) };
  return new Intl.DateTimeFormat(w.locale, { ...options, timeZone: 'UTC' }).format(new Date(`${key}T00:00:00Z`));
}

/**
 * The trend: a summary in words (complete without JavaScript, and what a screen reader hears for the chart), the
 * figures as a table, and the data the chart script draws. The axis runs from the first period with answers to the
 * last, a period between them without answers a gap: one day of answers is one point, not a dot at the edge of a
 * month of empty days.
 */
function trendFigure({ w, nps, trend, by }: { w: Words; nps: boolean; trend: Report; by: TimeGrouping }) {
  const { t } = w;
  const label = nps ? t('results.nps') : t('results.mean');
  const points = trend.data.filter((row) => row.responses > 0);
  const first = points[0];
  const last = points.at(-1);
  const keys = first && last ? periodKeys(by, first.key, last.key) : [];
  const withYear = trend.from.slice(0, 4) !== trend.to.slice(0, 4);
  const name = (key: string) => periodName({ w, by, key, withYear });
  const value = (row: ResultRow) => shown(w, figure(row));
  let summary = t('results.noAnswers');
  if (first && last && points.length === 1) summary = t('results.trend.one', { label, by, at: name(first.key), value: value(first) });
  else if (first && last) {
    // The first period at the lowest figure and the first at the highest.
    const low = points.reduce((a, b) => ((figure(b) ?? 0) < (figure(a) ?? 0) ? b : a));
    const high = points.reduce((a, b) => ((figure(b) ?? 0) > (figure(a) ?? 0) ? b : a));
    summary = t('results.trend.summary', {
      label,
      by,
      count: points.length,
      first: name(first.key),
      last: name(last.key),
      low: value(low),
      lowAt: name(low.key),
      high: value(high),
      highAt: name(high.key),
      latest: value(last),
    });
  }
  const byKey = new Map(points.map((row) => [row.key, figure(row)]));
  const scale = first?.scale;
  const data = {
    label,
    labels: keys.map(name),
    values: keys.map((key) => byKey.get(key) ?? null),
    min: nps ? -100 : scale?.min,
    max: nps ? 100 : scale?.max,
  };
  // JSON inside a script element: `<` escaped so that no value can close it.
  const json = raw(JSON.stringify(data).replace(/</g, '\\u003c'));
  const headers = [t('results.by', { by }), label, t('results.responses')];
  const table =
    points.length > 0 &&
    html`<details><summary>${t('results.trend.table')}</summary>
<table id="trend-table" class="cards"><caption>${summary}</caption>
<thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${points.map(
      (row) =>
        html`<tr><th scope="row">${name(row.key)}</th><td data-label="${headers[1]!}">${value(row)}</td><td data-label="${headers[2]!}">${w.number(row.responses)}</td></tr>`,
    )}</tbody></table></details>`;
  return html`<h2 id="trend-title">${t('results.trend')}</h2>
<figure>${points.length > 0 && html`<div class="chart"><canvas id="trend" role="img" aria-labelledby="trend-title trend-caption"></canvas></div>`}
<figcaption id="trend-caption">${summary}</figcaption>${table}</figure>
<script type="application/json" id="trend-data">${json}</script>`;
}

function ranking({
  w,
  id,
  title,
  what,
  caption,
  nps,
  report,
  score = nps ? w.t('results.nps') : w.t('results.mean'),
  linkOf,
  asked = w.t('results.sentShort'),
  ranked = false,
}: {
  w: Words;
  id: string;
  title: string;
  what: string;
  caption: string;
  nps: boolean;
  report: Report;
  score?: string;
  linkOf?: (row: ResultRow) => string;
  asked?: string;
  ranked?: boolean;
}) {
  const { t } = w;
  const headers = [
    what,
    ...(ranked ? [t('results.rank')] : []),
    score,
    ...(nps ? [t('results.ci')] : []),
    ...(ranked ? [t('results.changeColumn')] : []),
    t('results.responses'),
    asked,
    t('results.rate'),
  ];
  const rows = report.data.map((row) => {
    const cells = [
      ...(ranked ? [row.rank === null ? '–' : w.number(row.rank)] : []),
      shown(w, figure(row)),
      ...(nps ? [row.nps ? t('results.range', { low: w.number(row.nps.ci95[0]!), high: w.number(row.nps.ci95[1]!) }) : '–'] : []),
      ...(ranked ? [changeOf(w, row.change)] : []),
      w.number(row.responses),
      w.number(row.asked),
      rate(w, row),
    ];
    const apart = ranked ? row.rank === null : row.low_sample;
    const name =
      ranked && apart ? t('results.unranked', { name: row.label }) : apart ? t('results.lowSample', { name: row.label }) : row.label;
    const heading = linkOf ? html`<a href="${linkOf(row)}">${name}</a>` : name;
    return html`<tr${apart && html` class="low"`}><th scope="row">${heading}</th>${cells.map((c, i) => html`<td data-label="${headers[i + 1]!}">${c}</td>`)}</tr>`;
  });
  return html`<h2 id="${id}-title">${title}</h2>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="${id}-title"><table id="${id}" class="cards"><caption>${caption}</caption>
<thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="${headers.length}">${t('results.noAnswers')}</td></tr>`}</tbody></table></div>`;
}

/** A change against the period before: an arrow only when its 95% interval excludes zero (`ranking.ts`). */
function changeOf(w: Words, change: ResultRow['change']): string {
  if (!change) return '–';
  const value = w.signed(change.value);
  if (!change.significant) return w.t('results.change.noise', { change: value });
  return w.t(change.value > 0 ? 'results.change.up' : 'results.change.down', { change: value });
}

/**
 * The cases of the period beside the results (issue 33 §4): opened on the group's answers, the median time to the
 * first contact, the share resolved within the deadline, and the recovery rate with the answers it stands on. Read
 * from the same report rows as the rankings: no other read.
 */
function caseFigures({ w, id, title, what, report }: { w: Words; id: string; title: string; what: string; report: Report }) {
  const { t } = w;
  const share = (value: number | null) => (value === null ? '–' : w.percent(value));
  const rows = report.data.filter((row) => row.cases.opened > 0);
  const headers = [
    what,
    t('results.cases.opened'),
    t('results.cases.firstContact'),
    t('results.cases.inTime'),
    t('results.cases.recovery'),
    t('results.cases.recoveryAnswers'),
  ];
  const body = rows.map(
    (row) =>
      html`<tr><th scope="row">${row.label}</th>${[
        w.number(row.cases.opened),
        waitOf(w, row.cases.first_contact_median_range),
        onTime(w, row.cases),
        share(row.cases.recovery_rate),
        w.number(row.cases.recovery_answers),
      ].map((cell, i) => html`<td data-label="${headers[i + 1]!}">${cell}</td>`)}</tr>`,
  );
  return html`<h2 id="${id}-title">${title}</h2>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="${id}-title"><table id="${id}" class="cards"><caption>${t('results.cases.caption')}</caption>
<thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${body.length ? body : html`<tr><td colspan="${headers.length}">${t('results.cases.none')}</td></tr>`}</tbody></table></div>`;
}

/** A wait in minutes, in the unit that reads best: 15 min, 2 h, 3 days. */
function duration(w: Words, minutes: number): string {
  if (minutes < 60) return w.t('results.minutes', { n: w.number(minutes) });
  if (minutes < 1440) return w.t('results.hours', { n: w.number(minutes / 60) });
  return w.t('results.days', { n: minutes / 1440 });
}

/** The median wait as the histogram knows it: "up to 15 min", "15 min to 30 min", "over 7 days"; never finer. */
function waitOf(w: Words, range: CaseFigures['first_contact_median_range']): string {
  if (!range) return '–';
  if (range.high === null) return w.t('results.wait.over', { low: duration(w, range.low) });
  if (range.low === 0) return w.t('results.wait.upTo', { high: duration(w, range.high) });
  return w.t('results.wait.between', { low: duration(w, range.low), high: duration(w, range.high) });
}

/** Resolved within the deadline of the cases whose deadline is decided, "67% (2 of 3)"; cases all still in time say so. */
function onTime(w: Words, cases: CaseFigures): string {
  if (cases.on_time_rate === null) return w.t('results.cases.stillInTime');
  return w.t('results.cases.onTime', {
    share: w.percent(cases.on_time_rate),
    n: w.number(cases.resolved_in_time),
    total: w.number(cases.deadline_decided),
  });
}
