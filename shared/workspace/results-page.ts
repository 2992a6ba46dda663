import { html, raw, type SafeHtml } from '../html.js';
import { workspaceTranslator, type Translate, type WorkspaceKey } from '../i18n/messages.js';
import type { Locale } from '../locale.js';
import { addDays, CALENDAR, daysIn, daysOf, MAX_PERIOD_DAYS, periodEnding, periodFault, type PeriodFault } from '../dates.js';
import type { Report } from '../results/service.js';
import type { ResultRow } from '../results/report.js';
import type { ResultsQuery } from '../results/schema.js';
import type { JourneyConfig, Settings } from '../tenants/config-schema.js';
import type { UserRecord } from '../tenants/ports.js';
import { adminHome } from './admin-sections.js';
import { APP_ANSWERS_PATH, APP_RESULTS_PATH } from '../session/paths.js';
import type { WebAnswer } from '../web-answer.js';
import { layout, tenantLookOf } from './layout.js';
import { timesOf } from '../i18n/times.js';
import { indicatorWords } from './words.js';

/** What the results page reads: the tenant's journeys and language, and the results service's report, as the signed-in user. */
export interface ResultsPagePorts {
  settings(tenantId: number): Promise<Pick<Settings, 'journeys' | 'locale' | 'timeZone' | 'brand'>>;
  report(tenantId: number, query: ResultsQuery, user: Promise<UserRecord>): Promise<Report>;
}

export interface ResultsPageRequest {
  tenantId: number;
  user: UserRecord;
  base: string;
  query: Record<string, string | undefined>;
  today: string;
}

const DEFAULT_DAYS = 30;
/** The date rule's problems (shared/dates.ts), by the words that say them. */
const PERIOD_PROBLEM: Record<PeriodFault, WorkspaceKey> = {
  date: 'results.problem.dates',
  order: 'results.problem.order',
  span: 'results.problem.period',
};

/** The words and number formats of a language, made at its first use in a container. */
interface Words {
  t: Translate<WorkspaceKey>;
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
const rate = (w: Words, row: ResultRow) => (row.response_rate === null ? '–' : w.percent(row.response_rate));

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
    const form = filters(t, base, journeys, journey?.slug, from, to);
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

    const days = daysIn(from, to);
    const before = { from: addDays(from, -days), to: addDays(from, -1) };
    const asUser = Promise.resolve(user);
    const read = (groupBy: ResultsQuery['group_by'], range = { from, to }) =>
      ports.report(tenantId, { journey: journey.slug, ...range, group_by: groupBy }, asUser);
    const [current, previous, trend, stores, employees, classes] = await Promise.all([
      read('journey'),
      // No period before one that starts at the calendar's first year.
      periodFault(before.from, before.to) ? undefined : read('journey', before),
      read(days > 120 ? 'week' : 'day'),
      read('store'),
      read('employee'),
      read('class'),
    ]);
    const nps = journey.indicator === 'nps';
    // A store's or an employee's name opens its answers in the inbox, for the same journey and period.
    const answersOf = (filter: 'store' | 'employee') => (row: ResultRow) =>
      `${base}${APP_ANSWERS_PATH}?${new URLSearchParams({ journey: journey.slug, [filter]: row.key, from, to })}`;
    const body = html`<h1>${t('results.title')}</h1>${form}
<section aria-labelledby="summary-title"><h2 id="summary-title">${t('results.summary', { from: w.day(from), to: w.day(to) })}</h2>
${summary(w, nps, current.data[0], previous && { row: previous.data[0], ...before })}</section>
${trendFigure(w, nps, trend)}
${ranking(w, 'stores', t('results.stores'), t('results.store'), t('results.stores.caption'), nps, stores, undefined, answersOf('store'))}
${ranking(w, 'employees', t('results.employees'), t('results.employee'), t('results.employees.caption'), nps, employees, undefined, answersOf('employee'))}
${ranking(w, 'classes', t('results.classes'), t('results.class'), t('results.classes.caption'), false, classes, t('results.score'))}
${caseFigures(w, 'store-cases', t('results.storeCases'), t('results.store'), stores)}
${caseFigures(w, 'employee-cases', t('results.employeeCases'), t('results.employee'), employees)}`;
    return page(200, body);
  };
}

function filters(
  t: Translate<WorkspaceKey>,
  base: string,
  journeys: JourneyConfig[],
  chosen: string | undefined,
  from: string,
  to: string,
) {
  const options = journeys.map(
    (j) =>
      html`<option value="${j.slug}"${j.slug === chosen && html` selected`}>${j.name ?? j.slug} · ${indicatorWords(t, j.indicator)}</option>`,
  );
  return html`<form method="get" action="${base + APP_RESULTS_PATH}" class="filters card">
<div><label for="journey">${t('results.filter.journey')}</label><select id="journey" name="journey">${options}</select></div>
<div><label for="from">${t('results.filter.from')}</label><input id="from" name="from" type="date" value="${from}" required></div>
<div><label for="to">${t('results.filter.to')}</label><input id="to" name="to" type="date" value="${to}" required></div>
<button type="submit">${t('results.filter.submit')}</button></form>`;
}

/** The headline figures, each with its change against the period before (in points for NPS and means). */
function summary(
  w: Words,
  nps: boolean,
  row: ResultRow | undefined,
  previous: { row: ResultRow | undefined; from: string; to: string } | undefined,
) {
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

/** The trend, in words (the caption, complete without JavaScript) and as the data the chart script draws. */
function trendFigure(w: Words, nps: boolean, trend: Report) {
  const { t } = w;
  const label = nps ? t('results.nps') : t('results.mean');
  const points = trend.data.filter((row) => row.responses > 0);
  const caption = points.length
    ? t('results.trend.caption', {
        label,
        period: trend.group_by === 'week' ? 'week' : 'day',
        points: points.map((row) => `${w.day(row.key)} ${shown(w, figure(row))}`).join(', '),
      })
    : t('results.noAnswers');
  // Every day of the range on the axis (weeks as they come): a day without answers is a gap, not a zero.
  const labels = trend.group_by === 'day' ? daysOf(trend.from, trend.to) : points.map((row) => row.key);
  const byKey = new Map(points.map((row) => [row.key, figure(row)]));
  const scale = points[0]?.scale;
  const data = {
    label,
    labels,
    values: labels.map((key) => byKey.get(key) ?? null),
    min: nps ? -100 : scale?.min,
    max: nps ? 100 : scale?.max,
  };
  // JSON inside a script element: `<` escaped so that no value can close it.
  const json = raw(JSON.stringify(data).replace(/</g, '\\u003c'));
  return html`<h2 id="trend-title">${t('results.trend')}</h2>
<figure><div class="chart"><canvas id="trend" role="img" aria-labelledby="trend-title trend-caption"></canvas></div>
<figcaption id="trend-caption">${caption}</figcaption></figure>
<script type="application/json" id="trend-data">${json}</script>`;
}

function ranking(
  w: Words,
  id: string,
  title: string,
  what: string,
  caption: string,
  nps: boolean,
  report: Report,
  score = nps ? w.t('results.nps') : w.t('results.mean'),
  linkOf?: (row: ResultRow) => string,
) {
  const { t } = w;
  const headers = [what, score, ...(nps ? [t('results.ci')] : []), t('results.responses'), t('results.sentShort'), t('results.rate')];
  const rows = report.data.map((row) => {
    const cells = [
      shown(w, figure(row)),
      ...(nps ? [row.nps ? t('results.range', { low: w.number(row.nps.ci95[0]!), high: w.number(row.nps.ci95[1]!) }) : '–'] : []),
      w.number(row.responses),
      w.number(row.sent),
      rate(w, row),
    ];
    const name = row.low_sample ? t('results.lowSample', { name: row.label }) : row.label;
    const heading = linkOf ? html`<a href="${linkOf(row)}">${name}</a>` : name;
    return html`<tr${row.low_sample && html` class="low"`}><th scope="row">${heading}</th>${cells.map((c) => html`<td>${c}</td>`)}</tr>`;
  });
  return html`<h2 id="${id}-title">${title}</h2>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="${id}-title"><table id="${id}"><caption>${caption}</caption>
<thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="${headers.length}">${t('results.noAnswers')}</td></tr>`}</tbody></table></div>`;
}

/**
 * The cases of the period beside the results (issue 33 §4): opened on the group's answers, the median time to the
 * first contact, the share resolved within the deadline, and the recovery rate with the answers it stands on. Read
 * from the same report rows as the rankings: no other read.
 */
function caseFigures(w: Words, id: string, title: string, what: string, report: Report) {
  const { t } = w;
  const minutes = (value: number | null) =>
    value === null ? '–' : value < 60 ? t('results.minutes', { n: w.number(value) }) : t('results.hours', { n: w.number(value / 60) });
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
        minutes(row.cases.first_contact_median_minutes),
        share(row.cases.resolved_within_deadline),
        share(row.cases.recovery_rate),
        w.number(row.cases.recovery_answers),
      ].map((cell) => html`<td>${cell}</td>`)}</tr>`,
  );
  return html`<h2 id="${id}-title">${title}</h2>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="${id}-title"><table id="${id}"><caption>${t('results.cases.caption')}</caption>
<thead><tr>${headers.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${body.length ? body : html`<tr><td colspan="${headers.length}">${t('results.cases.none')}</td></tr>`}</tbody></table></div>`;
}
