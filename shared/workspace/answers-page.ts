import * as v from 'valibot';
import { queryString } from '../paging.js';
import type { AnswersPage } from '../answers/service.js';
import { AnswersQuery, NPS_BUCKETS, SCALE_BUCKETS, type AnswerBody, type Bucket } from '../answers/schema.js';
import { DomainError } from '../errors.js';
import type { Reader } from '../privacy/access.js';
import { PAGING } from '../paging.js';
import { APP_ANSWERS_CSV_PATH, APP_ANSWERS_PATH } from '../session/paths.js';
import { escapeHtml } from '../surveys/compose.js';
import type { Settings, UserScope } from '../tenants/config-schema.js';
import type { UserRecord } from '../tenants/ports.js';
import { adminHome } from './admin-sections.js';
import type { WebAnswer } from './answer.js';
import { layout } from './layout.js';
import { lazyFormat } from '../text.js';

/** What the inbox reads: the answers service (the API's), the names it shows, and the access log it writes. */
export interface AnswersPagePorts {
  settings(tenantId: number): Promise<Pick<Settings, 'journeys' | 'classes'>>;
  listAnswers(tenantId: number, query: AnswersQuery, scope: UserScope): Promise<AnswersPage>;
  storeNames(tenantId: number, ids: number[]): Promise<Map<number, string>>;
  employeeNames(tenantId: number, ids: number[]): Promise<Map<number, string>>;
  recordReads(tenantId: number, customerIds: number[], reader: Reader): Promise<void>;
}

export interface AnswersPageRequest {
  tenantId: number;
  user: UserRecord;
  base: string;
  requestId: string;
  query: Record<string, string | undefined>;
}

const BUCKET_LABELS: Record<Bucket, string> = {
  detractor: 'Detrator',
  passive: 'Neutro',
  promoter: 'Promotor',
  low: 'Nota baixa',
  mid: 'Nota média',
  high: 'Nota alta',
};
const FIELD_LABELS: Record<string, string> = {
  journey: 'Jornada',
  store: 'Loja',
  employee: 'Funcionário',
  from: 'De',
  to: 'Até',
  bucket: 'Faixa',
  class: 'Item avaliado',
  has_comment: 'Com comentário',
  cursor: 'Página',
  limit: 'Quantidade',
};
const when = lazyFormat<Date>(() => new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'UTC' }));

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
    const page = await ports.listAnswers(request.tenantId, query, request.user.scope);
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
    const config = await ports.settings(tenantId);
    const filters = filtersOf(request.query);
    const page = (status: number, body: string): WebAnswer => ({
      status,
      html: layout({ title: 'Respostas', base, user: user.name, adminHome: adminHome(user), current: APP_ANSWERS_PATH, body }),
    });
    const form = filterForm(base, config, filters);
    const parsed = v.safeParse(AnswersQuery, filters);
    let problems: string[] = [];
    let listed: AnswersPage | undefined;
    if (!parsed.success) problems = parsed.issues.map((issue) => problemText(v.getDotPath(issue), issue.message));
    else
      try {
        listed = await read(request, parsed.output, 'getAppAnswers');
      } catch (error) {
        if (!(error instanceof DomainError) || (error.kind !== 'validation' && error.kind !== 'not-found')) throw error;
        problems =
          error.kind === 'not-found'
            ? ['Loja não encontrada entre as suas.']
            : error.errors.length
              ? error.errors.map((p) => problemText(p.path, p.message))
              : ['Filtros inválidos: refaça a busca.'];
      }
    if (!listed || !parsed.success)
      return page(
        400,
        `<h1>Respostas</h1>${form}<div class="error" role="alert">${problems.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}</div>`,
      );

    const answers = listed.body.data;
    const [stores, employees] = await Promise.all([
      ports.storeNames(tenantId, [...new Set(answers.map((a) => a.store))]),
      ports.employeeNames(tenantId, [...new Set(answers.map((a) => a.employee))]),
    ]);
    const { cursor: _cursor, ...kept } = filters;
    // The export starts where this page starts, with the largest page; a cursor holds to the filters, not the limit.
    const current = { ...kept, ...(parsed.output.cursor ? { cursor: parsed.output.cursor } : {}) };
    const exportLink = href(base, APP_ANSWERS_CSV_PATH, { ...current, limit: PAGING.maxLimit });
    const next = listed.body.next_cursor;
    const items = answers.map((answer) => answerItem(base, kept, config, answer, stores, employees)).join('');
    const body = `<h1>Respostas</h1>${form}
<p class="export"><a href="${escapeHtml(exportLink)}" download>Exportar CSV</a>
<span class="hint">Até ${PAGING.maxLimit} respostas destes filtros, a partir desta página. Uma exportação maior continua pelo próximo endereço, que cada arquivo traz no cabeçalho <code>Link</code> (ou siga “Mais antigas” e exporte de novo).</span></p>
<h2 id="answers-title" class="visually-hidden">Respostas encontradas</h2>
${items ? `<ol id="answers" class="answers" aria-labelledby="answers-title">${items}</ol>` : '<p id="answers-empty">Nenhuma resposta com estes filtros.</p>'}
${next ? `<p class="more"><a rel="next" href="${escapeHtml(href(base, APP_ANSWERS_PATH, { ...kept, cursor: next }))}">Mais antigas</a></p>` : ''}`;
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
    return {
      status: 200,
      file: {
        type: 'text/csv; charset=utf-8',
        name: 'respostas.csv',
        body: listed.csv(),
        ...(next ? { headers: { link: `<${href(request.base, APP_ANSWERS_CSV_PATH, { ...kept, cursor: next })}>; rel="next"` } } : {}),
      },
    };
  }

  return { showAnswers, exportAnswers };
}

const problemText = (path: string | null | undefined, message: string) =>
  path && FIELD_LABELS[path] ? `${FIELD_LABELS[path]}: ${message}` : `Filtro inválido: ${message}`;

function filterForm(base: string, config: Pick<Settings, 'journeys' | 'classes'>, filters: Record<string, string>): string {
  const option = (value: string, label: string, chosen: string | undefined) =>
    `<option value="${escapeHtml(value)}"${value === (chosen ?? '') ? ' selected' : ''}>${escapeHtml(label)}</option>`;
  const select = (name: string, label: string, options: [string, string][]) =>
    `<div><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}">${options.map(([value, text]) => option(value, text, filters[name])).join('')}</select></div>`;
  const group = (label: string, buckets: readonly Bucket[]) =>
    `<optgroup label="${label}">${buckets.map((b) => option(b, BUCKET_LABELS[b], filters.bucket)).join('')}</optgroup>`;
  const input = (name: string, label: string, type: string, extra = '') =>
    `<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="${type}" value="${escapeHtml(filters[name] ?? '')}"${extra}></div>`;
  return `<form method="get" action="${escapeHtml(base + APP_ANSWERS_PATH)}" class="filters card">
${select('journey', 'Jornada', [['', 'Todas'], ...config.journeys.map((j): [string, string] => [j.slug, j.name ?? j.slug])])}
${input('store', 'Loja (código)', 'number', ' min="1" inputmode="numeric"')}
${input('employee', 'Funcionário (código)', 'number', ' min="1" inputmode="numeric"')}
${input('from', 'De', 'date')}
${input('to', 'Até', 'date')}
<div><label for="f-bucket">Faixa</label><select id="f-bucket" name="bucket">${option('', 'Todas', filters.bucket)}${group('NPS (0 a 10)', NPS_BUCKETS)}${group('Outras escalas', SCALE_BUCKETS)}</select></div>
${select('class', 'Item avaliado', [['', 'Todos'], ...config.classes.map((c): [string, string] => [String(c.id), c.label])])}
<div class="check"><input id="f-has_comment" name="has_comment" type="checkbox" value="true"${filters.has_comment === 'true' ? ' checked' : ''}><label for="f-has_comment">Só com comentário</label></div>
<button type="submit">Filtrar</button></form>`;
}

function answerItem(
  base: string,
  filters: Record<string, string>,
  config: Pick<Settings, 'journeys' | 'classes'>,
  answer: AnswerBody,
  stores: Map<number, string>,
  employees: Map<number, string>,
): string {
  const journey = config.journeys.find((j) => j.id === answer.journey.id);
  const store = stores.get(answer.store) ?? `Loja ${answer.store}`;
  const employee = employees.get(answer.employee) ?? `Funcionário ${answer.employee}`;
  const link = (query: Record<string, string | number>, text: string) =>
    `<a href="${escapeHtml(href(base, APP_ANSWERS_PATH, query))}">${escapeHtml(text)}</a>`;
  const period = { from: filters.from, to: filters.to } as Record<string, string>;
  const bucket = answer.bucket ? BUCKET_LABELS[answer.bucket] : 'Fora da escala';
  const classes = answer.classes.length
    ? `<ul class="classes">${answer.classes.map((c) => `<li>${escapeHtml(c.label ?? `Item ${c.class_id}`)}: <strong>${c.score}</strong></li>`).join('')}</ul>`
    : '';
  return `<li class="card answer bucket-${escapeHtml(answer.bucket ?? 'none')}">
<p class="score"><strong>${answer.score}</strong> <span>${escapeHtml(bucket)}</span> · ${escapeHtml(journey?.name ?? answer.journey.slug)} (${escapeHtml(answer.journey.indicator.toUpperCase())})</p>
${answer.comment !== null ? `<blockquote class="comment">${escapeHtml(answer.comment)}</blockquote>` : '<p class="hint">Sem comentário.</p>'}
${classes}
<p class="meta">${link({ ...period, store: answer.store }, store)} · ${link({ ...period, employee: answer.employee }, employee)} · ${escapeHtml(answer.channel)} · <time datetime="${escapeHtml(answer.answered_at)}">${escapeHtml(when.format(new Date(answer.answered_at)))} UTC</time></p>
</li>`;
}
