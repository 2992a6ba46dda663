import * as v from 'valibot';
import { html, message, type SafeHtml } from '../html.js';
import { workspaceTranslator, type Translate, type WorkspaceKey } from '../i18n/messages.js';
import { DEFAULT_LOCALE } from '../locale.js';
import { queryString } from '../paging.js';
import { availableUntil, type answerExports, type ExportJob } from '../answers/export.js';
import type { AnswersPage } from '../answers/service.js';
import { AnswersQuery, NPS_BUCKETS, SCALE_BUCKETS, type AnswerBody, type Bucket } from '../answers/schema.js';
import { DomainError } from '../errors.js';
import type { Reader } from '../privacy/access.js';
import { PAGING } from '../paging.js';
import { APP_ANSWERS_CSV_PATH, APP_ANSWERS_EXPORTS_PATH, APP_ANSWERS_PATH, appAnswersExportPath } from '../session/paths.js';
import type { UserScope } from '../access/user-scope.js';
import type { Settings } from '../settings/settings.js';
import type { UserRecord } from '../access/ports.js';
import { adminHome } from './admin-sections.js';
import { redirect, type WebAnswer } from '../web-answer.js';
import { layout, tenantLookOf, type TenantLook } from './layout.js';
import { choiceField, indicatorWords, MAX_CHOICES, sourceWords, storeField } from './words.js';
import { timesOf } from '../i18n/times.js';
import { SENTIMENTS } from '../themes/ports.js';
import { themesOf, type Theme } from '../themes/themes.js';

/** What the inbox reads: the answers service (the API's), the names it shows, and the access log it writes. */
export interface AnswersPagePorts {
  settings(tenantId: number): Promise<Pick<Settings, 'journeys' | 'classes' | 'locale' | 'timeZone' | 'brand' | 'themes' | 'regions'>>;
  /** The stores the user may filter by, by name (undefined: more than `most`). */
  storeChoices(tenantId: number, scope: UserScope, most: number): Promise<Map<number, string> | undefined>;
  /** The employees of those stores, by name (undefined: more than `most`). */
  employeeChoices(tenantId: number, scope: UserScope, most: number): Promise<Map<number, string> | undefined>;
  listAnswers(tenantId: number, asked: { query: AnswersQuery; scope: UserScope }): Promise<AnswersPage>;
  storeNames(tenantId: number, ids: number[]): Promise<Map<number, string>>;
  employeeNames(tenantId: number, ids: number[]): Promise<Map<number, string>>;
  recordReads(tenantId: number, customerIds: number[], reader: Reader): Promise<void>;
  /** The export of the page's filters the user asked, if any: the page shows its progress or its link. */
  exports: Pick<AnswerExports, 'find'>;
}

type AnswerExports = ReturnType<typeof answerExports>;

export interface AnswersPageRequest {
  tenantId: number;
  user: UserRecord;
  base: string;
  requestId: string;
  query: Record<string, string | undefined>;
}

/** The answers' filter fields, by the words that name them. */
const FIELD_LABELS: Record<string, WorkspaceKey> = {
  journey: 'answers.field.journey',
  store: 'answers.field.store',
  region: 'answers.field.region',
  employee: 'answers.field.employee',
  from: 'answers.field.from',
  to: 'answers.field.to',
  bucket: 'answers.field.bucket',
  class: 'answers.field.class',
  has_comment: 'answers.field.hasComment',
  theme: 'answers.field.theme',
  sentiment: 'answers.field.sentiment',
  cursor: 'answers.field.cursor',
  limit: 'answers.field.limit',
};

/** The words of the tenant's language, its way of writing an instant (in its zone, named), and its themes' names. */
const wordsOf = ({ locale, timeZone }: TenantLook, config: { themes?: readonly Theme[] | undefined } = {}) => ({
  t: workspaceTranslator(locale),
  when: timesOf(locale, timeZone).when,
  themes: new Map(themesOf(config).map((theme) => [theme.slug, theme.name[locale]])),
});
type Words = ReturnType<typeof wordsOf>;

/** The filters a form sends: empty fields are no filter; anything else is the API's query, checked by its schema. */
const filtersOf = (query: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));

const href = (base: string, path: string, query: Record<string, string | number | undefined>) => `${base}${path}${queryString(query)}`;

/**
 * The answers inbox (issue 32): newest first, each with its score, bucket, comment and class scores, filtered as
 * `GET /public/answers` is and through the same service, as the signed-in user may see them. Its CSV export is the
 * same service's CSV, a page at a time: each file's `Link` header names the next.
 */
export function answersPage(ports: AnswersPagePorts) {
  /** Reads a page and records the customers it shows (names and comments are personal data) before answering. */
  async function read(request: AnswersPageRequest, query: AnswersQuery, operation: string) {
    const page = await ports.listAnswers(request.tenantId, { query, scope: request.user.scope });
    await ports.recordReads(request.tenantId, page.shownCustomers, {
      operation,
      keyId: null,
      user: request.user.name,
      requestId: request.requestId,
    });
    return page;
  }

  async function showAnswers(request: AnswersPageRequest): Promise<WebAnswer> {
    const { tenantId, user, base } = request;
    const [config, stores, people] = await Promise.all([
      ports.settings(tenantId),
      ports.storeChoices(tenantId, user.scope, MAX_CHOICES),
      ports.employeeChoices(tenantId, user.scope, MAX_CHOICES),
    ]);
    const look = tenantLookOf(config);
    const words = wordsOf(look, config);
    const { t } = words;
    const filters = filtersOf(request.query);
    const page = (status: number, body: SafeHtml): WebAnswer => ({
      status,
      html: layout({
        title: t('answers.title'),
        base,
        user: user.name,
        adminHome: adminHome(user),
        current: APP_ANSWERS_PATH,
        locale: look.locale,
        brand: look.brand,
        body,
      }),
    });
    const form = filterForm(words, { base, config, filters, choices: { stores, employees: people } });
    const parsed = v.safeParse(AnswersQuery, filters);
    let problems: string[] = [];
    let listed: AnswersPage | undefined;
    if (!parsed.success) problems = parsed.issues.map((issue) => problemText(t, v.getDotPath(issue), issue.message));
    else
      try {
        listed = await read(request, parsed.output, 'getAppAnswers');
      } catch (error) {
        if (!(error instanceof DomainError) || (error.kind !== 'validation' && error.kind !== 'not-found')) throw error;
        problems =
          error.kind === 'not-found'
            ? [t('answers.problem.store')]
            : error.errors.length
              ? error.errors.map((p) => problemText(t, p.path, p.message))
              : [t('answers.problem.filters')];
      }
    if (!listed || !parsed.success)
      return page(
        400,
        html`<h1>${t('answers.title')}</h1>${form}<div class="error" role="alert">${problems.map((p) => html`<p>${p}</p>`)}</div>`,
      );

    const answers = listed.body.data;
    const [storeNames, employees] = await Promise.all([
      ports.storeNames(tenantId, [...new Set(answers.map((a) => a.store))]),
      ports.employeeNames(tenantId, [...new Set(answers.map((a) => a.employee))]),
    ]);
    const { cursor: _cursor, ...kept } = filters;
    // The export starts where this page starts, with the largest page; a cursor holds to the filters, not the limit.
    const current = { ...kept, ...(parsed.output.cursor ? { cursor: parsed.output.cursor } : {}) };
    const exportLink = href(base, APP_ANSWERS_CSV_PATH, { ...current, limit: PAGING.maxLimit });
    const next = listed.body.next_cursor;
    const items = answers.map((answer) => answerItem(words, { base, filters: kept, config, answer, stores: storeNames, employees }));
    const job = await ports.exports.find(tenantId, { user, query: kept });
    const body = html`<h1>${t('answers.title')}</h1>${form}
<p class="export"><a href="${exportLink}" download>${t('answers.export')}</a>
<span class="hint">${message((a) => t('answers.export.hint', a), { max: PAGING.maxLimit })}</span></p>
${exportArea(words, { base, filters: kept, job })}
<h2 id="answers-title" class="visually-hidden">${t('answers.found')}</h2>
${items.length ? html`<ol id="answers" class="answers" aria-labelledby="answers-title">${items}</ol>` : html`<p id="answers-empty">${t('answers.empty')}</p>`}
${next && html`<p class="more"><a rel="next" href="${href(base, APP_ANSWERS_PATH, { ...kept, cursor: next })}">${t('answers.more')}</a></p>`}`;
    return page(200, body);
  }

  /** The same filters as CSV (the API's module), one page: the next one is named by the `Link` header. */
  async function exportAnswers(request: AnswersPageRequest): Promise<WebAnswer> {
    const filters = filtersOf(request.query);
    const parsed = v.safeParse(AnswersQuery, filters);
    if (!parsed.success) return showAnswers(request);
    let listed: AnswersPage;
    try {
      listed = await read(request, parsed.output, 'getAppAnswersCsv');
    } catch (error) {
      if (error instanceof DomainError && (error.kind === 'validation' || error.kind === 'not-found')) return showAnswers(request);
      throw error;
    }
    const next = listed.body.next_cursor;
    const { cursor: _cursor, ...kept } = filters;
    const t = workspaceTranslator((await ports.settings(request.tenantId)).locale ?? DEFAULT_LOCALE);
    return {
      status: 200,
      file: {
        type: 'text/csv; charset=utf-8',
        name: t('answers.csvName'),
        body: listed.csv(),
        ...(next ? { headers: { link: `<${href(request.base, APP_ANSWERS_CSV_PATH, { ...kept, cursor: next })}>; rel="next"` } } : {}),
      },
    };
  }

  /** The page's "export" button: starts the job of its filters (or finds the one running), then back to the page. */
  async function startExport(request: AnswersPageRequest, exports: Pick<AnswerExports, 'start'>): Promise<WebAnswer> {
    let job: ExportJob;
    try {
      job = await exports.start(request.tenantId, { user: request.user, query: request.query });
    } catch (error) {
      // The page says which filter is wrong, as a search with them would.
      if (error instanceof DomainError && (error.kind === 'validation' || error.kind === 'not-found')) return showAnswers(request);
      throw error;
    }
    return redirect(`${href(request.base, APP_ANSWERS_PATH, job.filters)}#export`);
  }

  /** An export's download: to a short-lived address of its file, or a page saying it is gone. */
  async function downloadExport(request: AnswersPageRequest, id: string, exports: Pick<AnswerExports, 'link'>): Promise<WebAnswer> {
    const link = await exports.link(request.tenantId, { user: request.user, id });
    if (link) return { status: 303, location: link };
    const look = tenantLookOf(await ports.settings(request.tenantId));
    const { t } = wordsOf(look);
    return {
      status: 404,
      html: layout({
        title: t('answers.title'),
        base: request.base,
        user: request.user.name,
        adminHome: adminHome(request.user),
        current: APP_ANSWERS_PATH,
        locale: look.locale,
        brand: look.brand,
        body: html`<h1>${t('answers.title')}</h1><p role="alert">${t('answers.export.gone')}</p>
<p><a href="${request.base + APP_ANSWERS_PATH}">${t('answers.title')}</a></p>`,
      }),
    };
  }

  return { showAnswers, exportAnswers, startExport, downloadExport };
}

/** The export of the page's filters: a button that starts it, its progress while it runs, its link when done. */
function exportArea(
  { t, when }: Words,
  { base, filters, job, now = Date.now() }: { base: string; filters: Record<string, string>; job: ExportJob | undefined; now?: number },
) {
  const running = job?.status === 'running';
  // "Refresh" opens the page without the fragment the start left on it: a link to the same address with a fragment
  // would only scroll, not load the page again.
  const until = job?.status === 'done' ? availableUntil(job) : 0;
  const status = running
    ? html`<p role="status">${t('answers.export.running', { rows: job.rows })} <a href="${href(base, APP_ANSWERS_PATH, filters)}">${t('answers.export.refresh')}</a></p>`
    : job && until > now
      ? html`<p role="status">${t('answers.export.done', { rows: job.rows })} <a href="${base + appAnswersExportPath(job.id)}">${t('answers.export.download')}</a>
${t('answers.export.until', { when: when(new Date(until).toISOString()) })}</p>`
      : null;
  const hidden = Object.entries(filters).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  const form =
    !running &&
    html`<form method="post" action="${base + APP_ANSWERS_EXPORTS_PATH}">${hidden}<button type="submit">${t('answers.export.start')}</button>
<span class="hint">${t('answers.export.startHint')}</span></form>`;
  return html`<div id="export" class="export">${status}${form}</div>`;
}

const problemText = (t: Translate<WorkspaceKey>, path: string | null | undefined, message: string) =>
  path && FIELD_LABELS[path]
    ? t('answers.problem.field', { field: t(FIELD_LABELS[path]), message })
    : t('answers.problem.other', { message });

function filterForm(
  { t, themes }: Words,
  {
    base,
    config,
    filters,
    choices,
  }: {
    base: string;
    config: Pick<Settings, 'journeys' | 'classes' | 'regions'>;
    filters: Record<string, string>;
    choices: Record<'stores' | 'employees', Map<number, string> | undefined>;
  },
) {
  const regions = config.regions ?? [];
  const option = (value: string, label: string, chosen: string | undefined) =>
    html`<option value="${value}"${value === (chosen ?? '') && html` selected`}>${label}</option>`;
  const select = (name: string, label: string, options: [string, string][]) =>
    html`<div><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}">${options.map(([value, text]) => option(value, text, filters[name]))}</select></div>`;
  const group = (label: string, buckets: readonly Bucket[]) =>
    html`<optgroup label="${label}">${buckets.map((b) => option(b, t(`answers.bucket.${b}`), filters.bucket))}</optgroup>`;
  const input = (name: string, label: string, type: string) =>
    html`<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="${type}" value="${filters[name] ?? ''}"></div>`;
  return html`<form method="get" action="${base + APP_ANSWERS_PATH}" class="filters card">
${select('journey', t('answers.field.journey'), [['', t('answers.all')], ...config.journeys.map((j): [string, string] => [j.slug, j.name ?? j.slug])])}
${storeField(t, { id: 'f-store', name: 'store', label: t('answers.filter.store'), chosen: filters.store, choices: choices.stores })}
${regions.length ? select('region', t('answers.field.region'), [['', t('answers.allRegions')], ...regions.map((r): [string, string] => [String(r.id), r.name])]) : ''}
${choiceField({
  id: 'f-employee',
  name: 'employee',
  label: choices.employees ? t('answers.field.employee') : t('answers.filter.employee'),
  any: t('workspace.anyEmployee'),
  chosen: filters.employee,
  choices: choices.employees,
})}
${input('from', t('answers.field.from'), 'date')}
${input('to', t('answers.field.to'), 'date')}
<div><label for="f-bucket">${t('answers.field.bucket')}</label><select id="f-bucket" name="bucket">${option('', t('answers.all'), filters.bucket)}${group(t('answers.filter.nps'), NPS_BUCKETS)}${group(t('answers.filter.otherScales'), SCALE_BUCKETS)}</select></div>
${select('class', t('answers.field.class'), [['', t('answers.allItems')], ...config.classes.map((c): [string, string] => [String(c.id), c.label])])}
${select('theme', t('answers.field.theme'), [['', t('answers.allThemes')], ...themes])}
${select('sentiment', t('answers.field.sentiment'), [['', t('answers.allSentiments')], ...SENTIMENTS.map((s): [string, string] => [s, t(`answers.sentiment.${s}`)])])}
<div class="check"><input id="f-has_comment" name="has_comment" type="checkbox" value="true"${filters.has_comment === 'true' && html` checked`}><label for="f-has_comment">${t('answers.filter.hasComment')}</label></div>
<button type="submit">${t('answers.filter.submit')}</button></form>`;
}

function answerItem(
  { t, when, themes }: Words,
  {
    base,
    filters,
    config,
    answer,
    stores,
    employees,
  }: {
    base: string;
    filters: Record<string, string>;
    config: Pick<Settings, 'journeys' | 'classes'>;
    answer: AnswerBody;
    stores: Map<number, string>;
    employees: Map<number, string>;
  },
) {
  const journey = config.journeys.find((j) => j.id === answer.journey.id);
  const store = stores.get(answer.store) ?? t('answers.store', { id: answer.store });
  const employee = employees.get(answer.employee) ?? t('answers.employee', { id: answer.employee });
  const link = (query: Record<string, string | number>, text: string) => html`<a href="${href(base, APP_ANSWERS_PATH, query)}">${text}</a>`;
  const period = { from: filters.from, to: filters.to } as Record<string, string>;
  const bucket = answer.bucket ? t(`answers.bucket.${answer.bucket}`) : t('answers.outOfScale');
  const classes =
    answer.classes.length > 0 &&
    html`<ul class="classes">${answer.classes.map((c) => html`<li>${c.label ?? t('answers.item', { id: c.class_id })}: <strong>${c.score}</strong></li>`)}</ul>`;
  // The comment's analysis, once made: its sentiment, and its themes as chips that list the theme's answers.
  const analysis =
    answer.comment !== null &&
    answer.sentiment !== null &&
    html`<div class="analysis"><span class="sentiment sentiment-${answer.sentiment}">${t('answers.field.sentiment')}: ${t(`answers.sentiment.${answer.sentiment}`)}</span>${
      answer.themes?.length
        ? html`<ul class="chips" aria-label="${t('answers.themes')}">${answer.themes.map((theme) => html`<li>${link({ ...period, theme }, themes.get(theme) ?? theme)}</li>`)}</ul>`
        : ''
    }</div>`;
  return html`<li class="card answer bucket-${answer.bucket ?? 'none'}">
<p class="score"><strong>${answer.score}</strong> <span>${bucket}</span> · ${journey?.name ?? answer.journey.slug} · ${indicatorWords(t, answer.journey.indicator)}</p>
${answer.comment !== null ? html`<blockquote class="comment">${answer.comment}</blockquote>` : html`<p class="hint">${t('answers.noComment')}</p>`}
${analysis}
${classes}
<p class="meta">${link({ ...period, store: answer.store }, store)} · ${link({ ...period, employee: answer.employee }, employee)} · ${sourceWords(t, answer.channel)} · <time datetime="${answer.answered_at}">${when(answer.answered_at)}</time></p>
</li>`;
}
