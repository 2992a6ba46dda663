import { addDays, CALENDAR, daysIn, daysOf, MAX_PERIOD_DAYS, periodEnding, periodFault, type PeriodFault } from '../dates.js';
import type { Report } from '../results/service.js';
import type { ResultRow } from '../results/report.js';
import type { ResultsQuery } from '../results/schema.js';
import { escapeHtml } from '../surveys/compose.js';
import type { JourneyConfig } from '../tenants/config-schema.js';
import type { UserRecord } from '../tenants/ports.js';
import { adminHome } from './admin-sections.js';
import { APP_ANSWERS_PATH, APP_RESULTS_PATH } from '../session/paths.js';
import type { WebAnswer } from './answer.js';
import { layout } from './layout.js';
import { lazyFormat } from '../text.js';

/** What the results page reads: the tenant's journeys and the results service's report, as the signed-in user. */
export interface ResultsPagePorts {
  journeys(tenantId: number): Promise<JourneyConfig[]>;
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
/** The date rule's problems, in the page's words. */
const PERIOD_TEXT: Record<PeriodFault, string> = {
  date: `Informe as datas como AAAA-MM-DD, entre ${CALENDAR.minYear} e ${CALENDAR.maxYear}.`,
  order: 'A data inicial é depois da final.',
  span: `O período pode ter até ${MAX_PERIOD_DAYS} dias.`,
};

const number = lazyFormat<number>(() => new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 }));
const signed = lazyFormat<number>(() => new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1, signDisplay: 'exceptZero' }));
const percent = lazyFormat<number>(() => new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 1 }));

/** A row's headline figure: the NPS for an NPS journey, else the mean score. */
const figure = (row: ResultRow | undefined): number | null => (row ? (row.nps ? row.nps.score : row.mean) : null);
const shown = (value: number | null) => (value === null ? '–' : number.format(value));
const rate = (row: ResultRow) => (row.response_rate === null ? '–' : percent.format(row.response_rate));

/**
 * The results page of the workspace: the journey's headline figure, answers, sends and response rate for the period,
 * each against the period of equal length just before it; the trend; stores, employees and the journey's classes
 * ranked. Everything is read as the signed-in user: a user limited to some stores sees only those.
 */
export function resultsPage(ports: ResultsPagePorts) {
  return async function showResults({ tenantId, user, base, query, today }: ResultsPageRequest): Promise<WebAnswer> {
    const journeys = await ports.journeys(tenantId);
    const journey = journeys.find((j) => j.slug === query.journey || String(j.id) === query.journey) ?? journeys[0];
    const to = query.to || today;
    const from = query.from || periodEnding(to, DEFAULT_DAYS);
    const problems: string[] = [];
    if (query.journey && journey?.slug !== query.journey && String(journey?.id) !== query.journey) problems.push('Jornada desconhecida.');
    const fault = periodFault(from, to);
    if (fault) problems.push(PERIOD_TEXT[fault]);
    const form = filters(base, journeys, journey?.slug, from, to);
    const page = (status: number, body: string): WebAnswer => ({
      status,
      html: layout({
        title: 'Resultados',
        base,
        user: user.name,
        adminHome: adminHome(user),
        current: APP_RESULTS_PATH,
        body,
        scripts: status === 200 ? ['chart.umd.min.js', 'app.js'] : [],
      }),
    });
    if (!journey) return page(200, `<h1>Resultados</h1><p>Nenhuma jornada configurada ainda.</p>`);
    if (problems.length)
      return page(
        400,
        `<h1>Resultados</h1>${form}<div class="error" role="alert">${problems.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}</div>`,
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
    const body = `<h1>Resultados</h1>${form}
<section aria-labelledby="summary-title"><h2 id="summary-title">Resumo de ${escapeHtml(from)} a ${escapeHtml(to)}</h2>
${summary(nps, current.data[0], previous && { row: previous.data[0], ...before })}</section>
${trendFigure(nps, trend)}
${ranking('stores', 'Lojas', 'Loja', 'Lojas, da melhor para a pior; amostras pequenas por último', nps, stores, undefined, answersOf('store'))}
${ranking('employees', 'Funcionários', 'Funcionário', 'Funcionários, do melhor para o pior; amostras pequenas por último', nps, employees, undefined, answersOf('employee'))}
${ranking('classes', 'Por item avaliado', 'Item', 'Cada item que a jornada avalia, na escala dele (NPS ou média)', false, classes, 'Nota')}
${caseFigures('store-cases', 'Casos por loja', 'Loja', stores)}
${caseFigures('employee-cases', 'Casos por funcionário', 'Funcionário', employees)}`;
    return page(200, body);
  };
}

function filters(base: string, journeys: JourneyConfig[], chosen: string | undefined, from: string, to: string): string {
  const options = journeys
    .map((j) => `<option value="${escapeHtml(j.slug)}"${j.slug === chosen ? ' selected' : ''}>${escapeHtml(j.name ?? j.slug)}</option>`)
    .join('');
  return `<form method="get" action="${escapeHtml(base + APP_RESULTS_PATH)}" class="filters card">
<div><label for="journey">Jornada</label><select id="journey" name="journey">${options}</select></div>
<div><label for="from">De</label><input id="from" name="from" type="date" value="${escapeHtml(from)}" required></div>
<div><label for="to">Até</label><input id="to" name="to" type="date" value="${escapeHtml(to)}" required></div>
<button type="submit">Ver resultados</button></form>`;
}

/** The headline figures, each with its change against the period before (in points for NPS and means). */
function summary(
  nps: boolean,
  row: ResultRow | undefined,
  previous: { row: ResultRow | undefined; from: string; to: string } | undefined,
): string {
  const before = previous?.row;
  const change = (now: number | null, then: number | null, format: (n: number) => string) =>
    now === null || then === null || !previous
      ? 'sem comparação'
      : `${format(now - then)} vs. ${escapeHtml(previous.from)} a ${escapeHtml(previous.to)}`;
  const items: [string, string, string][] = [
    [nps ? 'NPS' : 'Média', shown(figure(row)), change(figure(row), figure(before), (n) => signed.format(n))],
    ['Respostas', number.format(row?.responses ?? 0), change(row?.responses ?? 0, before?.responses ?? 0, (n) => signed.format(n))],
    ['Pesquisas enviadas', number.format(row?.sent ?? 0), change(row?.sent ?? 0, before?.sent ?? 0, (n) => signed.format(n))],
    [
      'Taxa de resposta',
      row ? rate(row) : '–',
      change(row?.response_rate ?? null, before?.response_rate ?? null, (n) => `${signed.format(n * 100)} p.p.`),
    ],
  ];
  return `<dl id="summary">${items.map(([term, value, delta]) => `<div><dt>${term}</dt><dd>${value}<span class="change">${delta}</span></dd></div>`).join('')}</dl>`;
}

/** The trend, in words (the caption, complete without JavaScript) and as the data the chart script draws. */
function trendFigure(nps: boolean, trend: Report): string {
  const label = nps ? 'NPS' : 'Média';
  const points = trend.data.filter((row) => row.responses > 0);
  const caption = points.length
    ? `${label} por ${trend.group_by === 'week' ? 'semana' : 'dia'}: ${points.map((row) => `${row.key} ${shown(figure(row))}`).join(', ')}`
    : 'Nenhuma resposta no período.';
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
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return `<h2 id="trend-title">Ao longo do tempo</h2>
<figure><div class="chart"><canvas id="trend" role="img" aria-labelledby="trend-title trend-caption"></canvas></div>
<figcaption id="trend-caption">${escapeHtml(caption)}</figcaption></figure>
<script type="application/json" id="trend-data">${json}</script>`;
}

function ranking(
  id: string,
  title: string,
  what: string,
  caption: string,
  nps: boolean,
  report: Report,
  score = nps ? 'NPS' : 'Média',
  linkOf?: (row: ResultRow) => string,
): string {
  const headers = [what, score, ...(nps ? ['IC 95%'] : []), 'Respostas', 'Enviadas', 'Taxa de resposta'];
  const rows = report.data.map((row) => {
    const cells = [
      shown(figure(row)),
      ...(nps ? [row.nps ? `${number.format(row.nps.ci95[0]!)} a ${number.format(row.nps.ci95[1]!)}` : '–'] : []),
      number.format(row.responses),
      number.format(row.sent),
      rate(row),
    ];
    const name = row.low_sample ? `${row.label} (amostra pequena)` : row.label;
    const title = linkOf ? `<a href="${escapeHtml(linkOf(row))}">${escapeHtml(name)}</a>` : escapeHtml(name);
    return `<tr${row.low_sample ? ' class="low"' : ''}><th scope="row">${title}</th>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`;
  });
  return `<h2 id="${id}-title">${escapeHtml(title)}</h2>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="${id}-title"><table id="${id}"><caption>${escapeHtml(caption)}</caption>
<thead><tr>${headers.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead>
<tbody>${rows.join('') || `<tr><td colspan="${headers.length}">Nenhuma resposta no período.</td></tr>`}</tbody></table></div>`;
}

const minutes = (value: number | null) =>
  value === null ? '–' : value < 60 ? `${number.format(value)} min` : `${number.format(value / 60)} h`;
const share = (value: number | null) => (value === null ? '–' : percent.format(value));

/**
 * The cases of the period beside the results (issue 33 §4): opened on the group's answers, the median time to the
 * first contact, the share resolved within the deadline, and the recovery rate with the answers it stands on. Read
 * from the same report rows as the rankings: no other read.
 */
function caseFigures(id: string, title: string, what: string, report: Report): string {
  const rows = report.data.filter((row) => row.cases.opened > 0);
  const headers = [what, 'Casos abertos', '1º contato (mediana)', 'Resolvidos no prazo', 'Recuperação', 'Respostas de recuperação'];
  const body = rows.map(
    (row) =>
      `<tr><th scope="row">${escapeHtml(row.label)}</th>${[
        number.format(row.cases.opened),
        minutes(row.cases.first_contact_median_minutes),
        share(row.cases.resolved_within_deadline),
        share(row.cases.recovery_rate),
        number.format(row.cases.recovery_answers),
      ]
        .map((cell) => `<td>${escapeHtml(cell)}</td>`)
        .join('')}</tr>`,
  );
  return `<h2 id="${id}-title">${escapeHtml(title)}</h2>
<div class="table-wrap" tabindex="0" role="region" aria-labelledby="${id}-title"><table id="${id}"><caption>Casos abertos nas respostas do período e o que aconteceu com eles; a recuperação é o “sim, foi resolvido” do cliente</caption>
<thead><tr>${headers.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead>
<tbody>${body.join('') || `<tr><td colspan="${headers.length}">Nenhum caso aberto no período.</td></tr>`}</tbody></table></div>`;
}
