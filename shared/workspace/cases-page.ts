import { caseLabel } from '../cases/record.js';
import * as v from 'valibot';
import { adminHome } from './admin-sections.js';
import { brandOf } from '../brand/brand.js';
import { casesSettingsOf } from '../cases/rules.js';
import { bucketOf } from '../answers/schema.js';
import { CASE_STATUSES, TRANSITIONS, MAX_NOTE_LENGTH, type CaseStatus } from '../cases/record.js';
import type { CaseBody, CaseContactBody } from '../cases/bodies.js';
import { CaseIdPath, CasePatch, CasesQuery } from '../cases/schema.js';
import type { CaseActor } from '../cases/service.js';
import { DomainError, type FieldProblem } from '../errors.js';
import { html, message, type SafeHtml } from '../html.js';
import { workspaceTranslator as translator, type WorkspaceKey, type Translate } from '../i18n/messages.js';
import { DEFAULT_LOCALE, timeZoneOf, type Locale } from '../locale.js';
import { queryString } from '../paging.js';
import type { Reader } from '../privacy/access.js';
import { integerString, MAX_INT_ID } from '../schema.js';
import { APP_ANSWERS_PATH, APP_CASE_CONTACT_PATH, APP_CASES_PATH, appCasePath } from '../session/paths.js';
import type { ShownAnalysis } from '../themes/ports.js';
import { themesOf } from '../themes/themes.js';
import type { UserScope } from '../access/user-scope.js';
import type { JourneyConfig } from '../settings/journeys.js';
import type { Settings } from '../settings/settings.js';
import type { Indicator } from '../settings/scales.js';
import type { UserRecord } from '../access/ports.js';
import type { WebAnswer } from '../web-answer.js';
import { layout } from './layout.js';
import { timesOf } from '../i18n/times.js';
import { indicatorWords, MAX_CHOICES, storeField } from './words.js';

/** The page's view of the tenant: its language and brand, the time zone its cases are due in, its root causes. */
export interface CasesFrame {
  locale: Locale;
  brand: { name: string; logoUrl?: string | undefined };
  timeZone: string;
  rootCauses: string[];
  journeys: Pick<JourneyConfig, 'id' | 'slug' | 'name' | 'indicator'>[];
  /** The names of the tenant's themes (or the defaults) in its language, by slug. */
  themes: ReadonlyMap<string, string>;
}

/** The case pages' frame from the tenant's settings: its language, brand, working hours' time zone, root causes, journeys. */
export function casesFrameOf(settings: Settings): CasesFrame {
  const { name, logoUrl } = brandOf(settings);
  const { rootCauses } = casesSettingsOf(settings);
  const locale = settings.locale ?? DEFAULT_LOCALE;
  return {
    locale,
    brand: { name, logoUrl },
    timeZone: timeZoneOf(settings),
    rootCauses,
    journeys: settings.journeys,
    themes: new Map(themesOf(settings).map((theme) => [theme.slug, theme.name[locale]])),
  };
}

/** A page of the API's cases (GET /public/cases) as the user may see them, and the customers whose comments it shows. */
export interface ListedCases {
  body: { data: CaseBody[]; next_cursor: string | null };
  shownCustomers: number[];
}

type CaseContact = v.InferOutput<typeof CaseContactBody>;

/** What the case pages read and write: the cases service (the API's), as the signed-in user, and the access log. */
export interface CasesPagePorts {
  frame(tenantId: number): Promise<CasesFrame>;
  list(tenantId: number, query: CasesQuery, actor: CaseActor): Promise<ListedCases>;
  /** NotFoundError when there is no such case among the user's stores. */
  get(tenantId: number, id: number, scope: UserScope): Promise<CaseBody>;
  /** The sentiment and themes of the case's answer (a case's id is its transaction's), null before its analysis. */
  analysis(tenantId: number, id: number): Promise<ShownAnalysis | null>;
  revealContact(tenantId: number, id: number, actor: CaseActor): Promise<{ customerId: number; body: CaseContact }>;
  /** Who may own a store's case: the people who sign in and see it (shared/cases/owner.ts). */
  candidates(tenantId: number, storeId: number): Promise<string[]>;
  storeNames(tenantId: number, ids: number[]): Promise<Map<number, string>>;
  /** The stores the user may filter by, by name (undefined: more than `most`). */
  storeChoices(tenantId: number, scope: UserScope, most: number): Promise<Map<number, string> | undefined>;
  employeeNames(tenantId: number, ids: number[]): Promise<Map<number, string>>;
  recordReads(tenantId: number, customerIds: number[], reader: Reader): Promise<void>;
}

/**
 * A manager's change to a case, made only while the case is at `expected` (the version the form was read at): given to
 * the case form's post only, so that the pages that read bundle no writes.
 */
export type CaseUpdate = (
  tenantId: number,
  change: { id: number; patch: CasePatch; actor: CaseActor; expected: number },
) => Promise<CaseBody>;

export interface CasesPageRequest {
  tenantId: number;
  user: UserRecord;
  base: string;
  requestId: string;
  query: Record<string, string | undefined>;
}

export interface CasePageRequest extends CasesPageRequest {
  id: string | undefined;
  form?: URLSearchParams;
}

/**
 * The list's filters as a form sends them: whose cases (every case of the user's stores, the ones they own, or the
 * unassigned ones), which ones, one store, the page. Mapped onto the API's query (CasesQuery).
 */
const VIEWS = ['stores', 'mine', 'none'] as const;
const VIEW_OWNER = { stores: {}, mine: { owner: 'me' }, none: { owner: 'none' } } as const;
const VIEW_LABELS: Record<(typeof VIEWS)[number], WorkspaceKey> = {
  stores: 'cases.view.stores',
  mine: 'cases.view.mine',
  none: 'cases.view.none',
};
const LIST_STATUSES = ['all', 'open', 'in_progress', 'overdue', 'resolved', 'closed_unresolved'] as const;
export const CaseListQuery = v.strictObject({
  view: v.optional(v.picklist(VIEWS), 'stores'),
  status: v.optional(v.picklist(LIST_STATUSES), 'all'),
  store: v.optional(integerString(1, MAX_INT_ID)),
  cursor: v.optional(v.pipe(v.string(), v.maxLength(2048))),
});
const PROBLEM_OF_FILTER: Record<string, WorkspaceKey> = {
  view: 'cases.problem.view',
  status: 'cases.problem.status',
  store: 'cases.problem.store',
  cursor: 'cases.problem.cursor',
};
const LIST_LABELS: Record<(typeof LIST_STATUSES)[number], WorkspaceKey> = {
  all: 'cases.filter.all',
  open: 'case.status.open',
  in_progress: 'case.status.in_progress',
  overdue: 'cases.filter.overdue',
  resolved: 'case.status.resolved',
  closed_unresolved: 'case.status.closed_unresolved',
};
const STATUS_KEYS: Record<CaseStatus, WorkspaceKey> = {
  open: 'case.status.open',
  in_progress: 'case.status.in_progress',
  resolved: 'case.status.resolved',
  closed_unresolved: 'case.status.closed_unresolved',
};
/** The field a problem of the cases service names, in the manager's words. */
const PROBLEM_OF_FIELD: Record<string, WorkspaceKey> = {
  status: 'case.problem.status',
  root_cause: 'case.problem.rootCause',
  owner: 'case.problem.owner',
  note: 'case.problem.note',
};

/** The empty fields a form sends are no filter. */
const filtersOf = (query: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''));

/**
 * The workspace's case pages (issue 33 §5), over the cases API's own service: the list of the user's cases (the
 * service's order: open before in progress before closed, overdue first), and a case's page with its answer, notes and
 * history, the reveal of the customer's contact (logged), a note, a change of status (a root cause to resolve) and of
 * owner. Every form posts back to the case and lands on it again (303), or shows what was wrong with everything typed
 * kept (400; 409 when someone changed the case meanwhile). All in the tenant's language and brand.
 */
export function casesPage(ports: CasesPagePorts) {
  async function framed(request: CasesPageRequest) {
    const frame = await ports.frame(request.tenantId);
    const t = translator(frame.locale);
    const { when } = timesOf(frame.locale, frame.timeZone);
    const page = (status: number, title: string, body: SafeHtml): WebAnswer => ({
      status,
      html: layout({
        title,
        base: request.base,
        user: request.user.name,
        adminHome: adminHome(request.user),
        current: APP_CASES_PATH,
        body,
        locale: frame.locale,
        brand: frame.brand,
      }),
    });
    const time = (iso: string): SafeHtml => html`<time datetime="${iso}">${when(iso)}</time>`;
    return { frame, t, page, time };
  }

  const reader = (request: CasesPageRequest, operation: string): Reader => ({
    operation,
    keyId: null,
    user: request.user.name,
    requestId: request.requestId,
  });
  const actor = (request: CasesPageRequest): CaseActor => ({ name: request.user.name, scope: request.user.scope });

  async function showCases(request: CasesPageRequest): Promise<WebAnswer> {
    const [{ frame, t, page, time }, choices] = await Promise.all([
      framed(request),
      ports.storeChoices(request.tenantId, request.user.scope, MAX_CHOICES),
    ]);
    const filters = filtersOf(request.query);
    const form = listForm({ t, base: request.base, filters, stores: choices });
    const refused = (problems: string[]) =>
      page(
        400,
        t('cases.title'),
        html`<h1>${t('cases.title')}</h1>${form}<div class="error" role="alert">${problems.map((p) => html`<p>${p}</p>`)}</div>`,
      );
    const parsed = v.safeParse(CaseListQuery, filters);
    if (!parsed.success)
      return refused([...new Set(parsed.issues.map((issue) => t(PROBLEM_OF_FILTER[v.getDotPath(issue) ?? ''] ?? 'cases.problem.status')))]);
    const { view, status, store, cursor } = parsed.output;
    const query = v.parse(CasesQuery, {
      ...(status === 'overdue' ? { overdue: 'true' } : status !== 'all' ? { status } : {}),
      ...(store !== undefined ? { store: String(store) } : {}),
      ...VIEW_OWNER[view],
      ...(cursor ? { cursor } : {}),
    });
    let listed: ListedCases;
    try {
      listed = await ports.list(request.tenantId, query, actor(request));
    } catch (error) {
      if (!(error instanceof DomainError) || (error.kind !== 'validation' && error.kind !== 'not-found')) throw error;
      return refused([t(error.kind === 'not-found' ? 'cases.problem.store' : 'cases.problem.cursor')]);
    }
    const cases = listed.body.data;
    const [stores] = await Promise.all([
      ports.storeNames(request.tenantId, [...new Set(cases.map((c) => c.store))]),
      ports.recordReads(request.tenantId, listed.shownCustomers, reader(request, 'getAppCases')),
    ]);
    const { cursor: _cursor, ...kept } = filters;
    const items = cases.map((c) => caseItem({ t, time, base: request.base, frame, c, stores }));
    const next = listed.body.next_cursor;
    const body = html`<h1>${t('cases.title')}</h1>${form}
<h2 id="cases-title" class="visually-hidden">${t('cases.found')}</h2>
${items.length ? html`<ol id="cases" class="answers cases" aria-labelledby="cases-title">${items}</ol>` : html`<p id="cases-empty">${t('cases.empty')}</p>`}
${next ? html`<p class="more"><a rel="next" href="${`${request.base}${APP_CASES_PATH}${queryString({ ...kept, cursor: next })}`}">${t('cases.more')}</a></p>` : ''}`;
    return page(200, t('cases.title'), body);
  }

  /** The case the path names as the user may see it, or undefined (no such id, not theirs: the same answer). */
  async function caseOf(request: CasePageRequest): Promise<CaseBody | undefined> {
    const id = v.safeParse(CaseIdPath, { id: request.id });
    if (!id.success) return undefined;
    try {
      return await ports.get(request.tenantId, id.output.id, request.user.scope);
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not-found') return undefined;
      throw error;
    }
  }

  interface Shown {
    status?: number;
    contact?: CaseContact['customer'];
    problems?: string[];
    form?: URLSearchParams;
    /** The form whose change was saved (`?saved=` after the redirect). */
    saved?: string | undefined;
    operation?: string;
  }

  async function render(request: CasePageRequest, found: CaseBody | undefined, shown: Shown = {}): Promise<WebAnswer> {
    const { frame, t, page, time } = await framed(request);
    if (!found)
      return page(
        404,
        t('case.notFound.title'),
        html`<h1>${t('case.notFound.title')}</h1><p>${t('case.notFound.text')}</p><p><a href="${request.base + APP_CASES_PATH}">${t('case.back')}</a></p>`,
      );
    const [stores, employees, candidates, analysis] = await Promise.all([
      ports.storeNames(request.tenantId, [found.store]),
      ports.employeeNames(request.tenantId, [found.employee]),
      ports.candidates(request.tenantId, found.store),
      found.comment === null ? null : ports.analysis(request.tenantId, found.id),
      // The comment is the customer's words: its read is logged (the reveal logged its own read already).
      shown.contact || found.comment === null
        ? undefined
        : ports.recordReads(request.tenantId, [found.customer.id], reader(request, shown.operation ?? 'getAppCase')),
    ]);
    const view: CaseView = {
      c: found,
      store: stores.get(found.store) ?? `#${found.store}`,
      employee: employees.get(found.employee) ?? `#${found.employee}`,
      journey: frame.journeys.find((j) => j.id === found.journey.id),
      rootCauses: frame.rootCauses,
      candidates,
      me: request.user.name,
      analysis: analysis && { ...analysis, names: frame.themes },
    };
    return page(
      shown.status ?? 200,
      t('case.title', { id: caseLabel(found) }),
      caseBody({
        t,
        time,
        base: request.base,
        view,
        form: shown.form,
        contact: shown.contact,
        problems: shown.problems ?? [],
        saved: shown.saved,
      }),
    );
  }

  async function showCase(request: CasePageRequest): Promise<WebAnswer> {
    return render(request, await caseOf(request), { saved: request.query.saved });
  }

  /** A form of the case (a note, a status, an owner): saved and back to the case (303), or the case again saying why not. */
  async function changeCase(request: CasePageRequest, update: CaseUpdate): Promise<WebAnswer> {
    const found = await caseOf(request);
    if (!found) return render(request, undefined);
    const { t } = await framed(request);
    const form = request.form ?? new URLSearchParams();
    const patch = patchOf(found, form);
    const problemsOf = (problems: FieldProblem[], resolving: boolean) => [
      ...new Set(
        problems.map((p) =>
          p.path === 'note' && resolving && !form.get('note')?.trim()
            ? t('case.problem.resolveNote')
            : t(PROBLEM_OF_FIELD[p.path] ?? 'case.problem.action', { max: MAX_NOTE_LENGTH }),
        ),
      ),
    ];
    if (!patch) return render(request, found, { status: 400, problems: [t('case.problem.action')], form });
    const parsed = v.safeParse(CasePatch, patch);
    const resolving = patch.status === 'resolved';
    if (!parsed.success)
      return render(request, found, {
        status: 400,
        problems: problemsOf(
          parsed.issues.map((issue) => ({ path: v.getDotPath(issue) ?? '', message: issue.message })),
          resolving,
        ),
        form,
      });
    // Someone changed the case first: it as it is now, and what this manager typed, to send again.
    const changed = async () => render(request, await caseOf(request), { status: 409, problems: [t('case.problem.changed')], form });
    // The version the form was read at (one change per version read: a form sent twice saves once).
    const version = Number(form.get('version'));
    if (!Number.isSafeInteger(version) || version < 1) return changed();
    try {
      await update(request.tenantId, { id: found.id, patch: parsed.output, actor: actor(request), expected: version });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.kind === 'not-found') return render(request, undefined);
      if (error.kind === 'validation') return render(request, found, { status: 400, problems: problemsOf(error.errors, resolving), form });
      if (error.kind !== 'precondition-failed') throw error;
      return changed();
    }
    return { status: 303, location: `${request.base}${appCasePath(found.id)}?saved=${encodeURIComponent(form.get('form') ?? '')}` };
  }

  /** The customer's contact, shown once on the case's page (the answer to the form's post), its read logged first. */
  async function revealContact(request: CasePageRequest): Promise<WebAnswer> {
    const found = await caseOf(request);
    if (!found) return render(request, undefined);
    const { customerId, body } = await ports.revealContact(request.tenantId, found.id, actor(request));
    await ports.recordReads(request.tenantId, [customerId], reader(request, 'postAppCaseContact'));
    return render(request, found, { contact: body.customer });
  }

  return { showCases, showCase, changeCase, revealContact };
}

/** The API's change a form posts: a note (on an open case, with the first contact it notes), a status, an owner (none: unassigned). */
function patchOf(found: CaseBody, form: URLSearchParams): Record<string, string | null> | undefined {
  const note = form.get('note') ?? '';
  const given = (name: string) => {
    const value = form.get(name);
    return value ? { [name]: value } : {};
  };
  switch (form.get('form')) {
    case 'note':
      return { note, ...(found.status === 'open' && form.get('first_contact') === 'yes' ? { status: 'in_progress' } : {}) };
    case 'status':
      return { status: form.get('status') ?? '', ...given('root_cause'), ...(note.trim() ? { note } : {}) };
    case 'owner':
      return { owner: form.get('owner') || null };
    default:
      return undefined;
  }
}

interface CaseView {
  c: CaseBody;
  store: string;
  employee: string;
  journey: CasesFrame['journeys'][number] | undefined;
  rootCauses: string[];
  /** Who may own the case (owner.ts), and the signed-in user, who takes it when among them. */
  candidates: string[];
  me: string;
  /** The comment's sentiment and themes (with the themes' names), once analysed. */
  analysis: (ShownAnalysis & { names: ReadonlyMap<string, string> }) | null;
}

function listForm({
  t,
  base,
  filters,
  stores,
}: {
  t: Translate<WorkspaceKey>;
  base: string;
  filters: Record<string, string>;
  stores: Map<number, string> | undefined;
}): SafeHtml {
  const option = ({ name, value, key, fallback }: { name: string; value: string; key: WorkspaceKey; fallback: string }) =>
    html`<option value="${value}"${(filters[name] ?? fallback) === value && html` selected`}>${t(key)}</option>`;
  return html`<form method="get" action="${base + APP_CASES_PATH}" class="filters card">
<div><label for="f-view">${t('cases.view')}</label><select id="f-view" name="view">${VIEWS.map((view) => option({ name: 'view', value: view, key: VIEW_LABELS[view], fallback: 'stores' }))}</select></div>
<div><label for="f-status">${t('cases.filter.status')}</label><select id="f-status" name="status">${LIST_STATUSES.map((s) => option({ name: 'status', value: s, key: LIST_LABELS[s], fallback: 'all' }))}</select></div>
${storeField(t, { id: 'f-store', name: 'store', label: t('cases.filter.store'), chosen: filters.store, choices: stores })}
<button type="submit">${t('cases.filter.submit')}</button></form>`;
}

const closed = (c: CaseBody) => TRANSITIONS[c.status].length === 0;
const late = (c: CaseBody) => c.overdue && !closed(c);
const statusBadge = (t: Translate<WorkspaceKey>, c: CaseBody) =>
  html`<span class="status status-${c.status}">${t(STATUS_KEYS[c.status])}</span>${late(c) ? html` <span class="status overdue">${t('case.overdue')}</span>` : ''}`;
const ownerText = (t: Translate<WorkspaceKey>, owner: string | null) => owner ?? t('case.noOwner');
const bucketClass = (journey: { indicator: Indicator } | undefined, score: number) =>
  `bucket-${(journey && bucketOf(journey.indicator, score)) ?? 'none'}`;

function caseItem({
  t,
  time,
  base,
  frame,
  c,
  stores,
}: {
  t: Translate<WorkspaceKey>;
  time: (iso: string) => SafeHtml;
  base: string;
  frame: CasesFrame;
  c: CaseBody;
  stores: Map<number, string>;
}): SafeHtml {
  const journey = frame.journeys.find((j) => j.id === c.journey.id);
  return html`<li class="card answer case ${bucketClass(journey, c.score)}${late(c) ? ' late' : ''}">
<p class="score"><a href="${base + appCasePath(c.id)}"><strong>${c.score}</strong> ${t('case.title', { id: caseLabel(c) })}</a> ${statusBadge(t, c)}</p>
${c.comment !== null ? html`<blockquote class="comment">${c.comment}</blockquote>` : html`<p class="hint">${t('case.noComment')}</p>`}
<p class="meta">${stores.get(c.store) ?? `#${c.store}`} · ${t('case.owner')}: ${ownerText(t, c.owner)} · ${message((a) => t('case.due', a), { when: time(c.due_at) })}</p>
</li>`;
}

function caseBody({
  t,
  time,
  base,
  view,
  form,
  contact,
  problems,
  saved,
}: {
  t: Translate<WorkspaceKey>;
  time: (iso: string) => SafeHtml;
  base: string;
  view: CaseView;
  form: URLSearchParams | undefined;
  contact: CaseContact['customer'] | undefined;
  problems: string[];
  saved: string | undefined;
}): SafeHtml {
  const { c, journey } = view;
  const action = base + appCasePath(c.id);
  const posted = form?.get('form');
  const typed = (name: string, which: string) => (posted === which ? (form?.get(name) ?? '') : '');
  // What a form answered shows in its own section (its action's fragment brings the browser there), else at the top.
  const where = problems.length ? posted : saved;
  const alertHtml = problems.length
    ? html`<div class="error" role="alert"><p>${t('case.problems')}</p><ul>${problems.map((p) => html`<li>${p}</li>`)}</ul></div>`
    : saved
      ? html`<p class="saved" role="status">${t('case.saved')}</p>`
      : '';
  const next = TRANSITIONS[c.status];
  const others = view.candidates.filter((name) => name !== c.owner);
  const mayTake = others.includes(view.me);
  const sections = { note: !closed(c), status: next.length > 0, owner: !closed(c) && (others.length > 0 || c.owner !== null) };
  const inSection = (which: keyof typeof sections) => (where === which ? alertHtml : '');
  const atTop = where && Object.hasOwn(sections, where) && sections[where as keyof typeof sections] ? '' : alertHtml;
  const formTo = (section: string) => `${action}#${section}`;
  // The version this page shows: a change is made only from it (a 409 page shows the case as it is now, with its own).
  const versionField = html`<input type="hidden" name="version" value="${c.version}">`;
  const facts: [WorkspaceKey, string | SafeHtml][] = [
    ['case.store', view.store],
    ['case.employee', view.employee],
    ['case.journey', journey ? `${journey.name ?? journey.slug} · ${indicatorWords(t, journey.indicator)}` : '–'],
    ['case.answeredAt', time(c.answered_at)],
    ['case.owner', ownerText(t, c.owner)],
    ...(c.root_cause ? [['case.rootCause', c.root_cause] as [WorkspaceKey, string]] : []),
  ];
  const recovery = c.recovery
    ? html`<section class="recovery" aria-labelledby="recovery-title"><h3 id="recovery-title">${t('case.recoveryAnswer')}</h3>
${typeof c.recovery.score === 'number' ? html`<p class="score">${t('case.recoveryScores', { before: c.score, after: c.recovery.score })}</p>` : ''}
<p>${t(c.recovery.outcome === 'recovered' ? 'case.recovered' : c.recovery.outcome === 'not_recovered' ? 'case.notRecovered' : 'case.recoveryPending')}</p></section>`
    : '';
  const option = (value: string, label: string, chosen: string) =>
    html`<option value="${value}"${value === chosen ? ' selected' : ''}>${label}</option>`;
  // A case is resolved from in progress (the contract's open -> in_progress -> resolved): an open case asks no root
  // cause, and says why resolving is not offered yet.
  const rootCause = next.includes('resolved')
    ? html`<label for="c-root">${t('case.change.rootCause')}</label><select id="c-root" name="root_cause">${option('', t('case.change.rootCause.none'), typed('root_cause', 'status'))}${view.rootCauses.map((cause) => option(cause, cause, typed('root_cause', 'status')))}</select>`
    : html`<p class="hint" id="c-status-why">${t('case.change.resolveLater')}</p>`;
  const statusForm = sections.status
    ? html`<section class="card" aria-labelledby="status-title"><h2 id="status-title">${t('case.change')}</h2>${inSection('status')}
<form method="post" action="${formTo('status-title')}" class="stack"><input type="hidden" name="form" value="status">${versionField}
<label for="c-status">${t('case.change.status')}</label><select id="c-status" name="status">${next.map((s) => option(s, t(STATUS_KEYS[s]), typed('status', 'status') || next[0]!))}</select>
${rootCause}
<label for="c-status-note">${t('case.change.note')}</label><textarea id="c-status-note" name="note" rows="3" maxlength="${MAX_NOTE_LENGTH}">${typed('note', 'status')}</textarea>
<button type="submit">${t('case.change.submit')}</button></form></section>`
    : '';
  // Take it (the signed-in user among who may own it), give it to another of them, or leave it to nobody.
  const ownerFormOf = (fields: SafeHtml, label: WorkspaceKey) =>
    html`<form method="post" action="${formTo('owner-title')}" class="stack"><input type="hidden" name="form" value="owner">${versionField}${fields}<button type="submit">${t(label)}</button></form>`;
  const ownerForm = sections.owner
    ? html`<section class="card" aria-labelledby="owner-title"><h2 id="owner-title">${t('case.reassign')}</h2>${inSection('owner')}
<p>${t('case.owner')}: <strong id="owner">${ownerText(t, c.owner)}</strong></p>
${mayTake ? ownerFormOf(html`<input type="hidden" name="owner" value="${view.me}">`, 'case.take') : ''}
${others.length ? ownerFormOf(html`<label for="c-owner">${t('case.reassign.owner')}</label><select id="c-owner" name="owner">${others.map((name) => option(name, name, typed('owner', 'owner')))}</select>`, 'case.reassign.submit') : ''}
${c.owner !== null ? ownerFormOf(html`<input type="hidden" name="owner" value="">`, 'case.unassign') : ''}</section>`
    : '';
  const notes = c.notes.length
    ? html`<ol id="notes" class="notes">${c.notes.map((n) => html`<li><p class="meta">${time(n.at)} · ${n.author}</p><p class="note">${n.text}</p></li>`)}</ol>`
    : html`<p class="hint">${t('case.notes.empty')}</p>`;
  // On an open case a note may record the first contact, which moves it on (open -> in progress): only when the manager
  // ticks it (a note ticked by default would record a first contact that was not, and shorten the first-contact median).
  const firstContact =
    c.status === 'open'
      ? html`<div class="check"><input id="c-first" name="first_contact" type="checkbox" value="yes"${posted === 'note' && form?.get('first_contact') === 'yes' ? ' checked' : ''}><label for="c-first">${t('case.note.firstContact')}</label></div>`
      : '';
  return html`<p><a href="${base + APP_CASES_PATH}">${t('case.back')}</a></p>
<h1>${t('case.title', { id: caseLabel(c) })} ${statusBadge(t, c)}</h1>
<p class="due">${closed(c) && c.closed_at ? message((a) => t('case.closedAt', a), { when: time(c.closed_at) }) : message((a) => t('case.due', a), { when: time(c.due_at) })}</p>
${atTop}
<section class="card answer ${bucketClass(journey, c.score)}" aria-labelledby="answer-title"><h2 id="answer-title">${t('case.answer')}</h2>
<p class="score"><span>${t('case.score')}</span> <strong>${c.score}</strong></p>
${c.comment !== null ? html`<blockquote class="comment">${c.comment}</blockquote>` : html`<p class="hint">${t('case.noComment')}</p>`}
${view.analysis && analysisChips({ t, base, c, analysis: view.analysis })}
<dl class="facts">${facts.map(([key, value]) => html`<div><dt>${t(key)}</dt><dd>${value}</dd></div>`)}</dl>${recovery}</section>
${contactSection({ t, base, c, contact })}
<section class="card" aria-labelledby="notes-title"><h2 id="notes-title">${t('case.notes')}</h2>${inSection('note')}${notes}
${
  closed(c)
    ? ''
    : html`<form method="post" action="${formTo('notes-title')}" class="stack"><input type="hidden" name="form" value="note">${versionField}
<label for="c-note">${t('case.note.label')}</label><textarea id="c-note" name="note" rows="3" maxlength="${MAX_NOTE_LENGTH}" required>${typed('note', 'note')}</textarea>
${firstContact}<button type="submit">${t('case.note.submit')}</button></form>`
}</section>
${statusForm}
${ownerForm}
<section class="card" aria-labelledby="history-title"><h2 id="history-title">${t('case.history')}</h2>
<ol id="history" class="history">${c.history.map((entry) => html`<li>${time(entry.at)} · ${historyText(t, entry)}${entry.by && entry.by !== 'system' ? ` · ${t('case.by', { who: entry.by })}` : ''}</li>`)}</ol></section>`;
}

/** The comment's sentiment, and its themes as chips that open the inbox's answers of that theme in the case's journey. */
function analysisChips({
  t,
  base,
  c,
  analysis,
}: {
  t: Translate<WorkspaceKey>;
  base: string;
  c: CaseBody;
  analysis: NonNullable<CaseView['analysis']>;
}): SafeHtml {
  const answersOf = (theme: string) =>
    `${base}${APP_ANSWERS_PATH}?${new URLSearchParams({ ...(c.journey.slug ? { journey: c.journey.slug } : {}), theme })}`;
  return html`<div class="analysis"><span class="sentiment sentiment-${analysis.sentiment}">${t('answers.field.sentiment')}: ${t(`answers.sentiment.${analysis.sentiment}`)}</span>${
    analysis.themes.length
      ? html`<ul class="chips" aria-label="${t('answers.themes')}">${analysis.themes.map((theme) => html`<li><a href="${answersOf(theme)}">${analysis.names.get(theme) ?? theme}</a></li>`)}</ul>`
      : ''
  }</div>`;
}

function contactSection({
  t,
  base,
  c,
  contact,
}: {
  t: Translate<WorkspaceKey>;
  base: string;
  c: CaseBody;
  contact: CaseContact['customer'] | undefined;
}): SafeHtml {
  const title = html`<h2 id="contact-title">${t('case.contact')}</h2>`;
  if (!contact)
    return html`<section class="card" aria-labelledby="contact-title">${title}<p class="hint">${t('case.contact.hint')}</p>
<form method="post" action="${base + APP_CASE_CONTACT_PATH.replace('{id}', String(c.id))}"><button type="submit">${t('case.contact.reveal')}</button></form></section>`;
  // Phone first: a manager calls or messages from their phone; WhatsApp opens a chat with the number's digits.
  const rows: SafeHtml[] = [];
  if (contact.phone)
    rows.push(
      html`<div><dt>${t('case.contact.phone')}</dt><dd><a href="tel:${contact.phone}">${contact.phone}</a> <a href="https://wa.me/${contact.phone.replace(/\D/g, '')}">${t('case.contact.whatsapp')}</a></dd></div>`,
    );
  if (contact.email)
    rows.push(html`<div><dt>${t('case.contact.email')}</dt><dd><a href="mailto:${contact.email}">${contact.email}</a></dd></div>`);
  if (contact.name) rows.push(html`<div><dt>${t('case.contact.name')}</dt><dd>${contact.name}</dd></div>`);
  return html`<section class="card contact" aria-labelledby="contact-title">${title}
${contact.phone || contact.email ? html`<dl id="contact" class="facts">${rows}</dl>` : html`<p id="contact">${t('case.contact.none')}</p>`}
<p class="hint">${t('case.contact.once')}</p></section>`;
}

function historyText(t: Translate<WorkspaceKey>, entry: CaseBody['history'][number]): string {
  const to = entry.to ?? '';
  switch (entry.action) {
    case 'opened':
      return t('case.event.opened');
    case 'status':
      return t('case.event.status', { status: isStatus(to) ? t(STATUS_KEYS[to]) : to });
    case 'owner':
      return entry.to ? t('case.event.owner', { owner: entry.to }) : t('case.event.unassigned');
    case 'note':
      return t('case.event.note');
    case 'overdue':
      return t('case.event.overdue');
    case 'contact':
      return t('case.event.contact');
    case 'erased':
      return t('case.event.erased');
    case 'expired':
      return t('case.event.expired');
    case 'rescored':
      return t('case.event.scoreCorrected', { score: to });
    case 'recovery':
      return t('case.event.recovery', {
        answer: t(to === 'recovered' ? 'case.recovered' : to === 'not_recovered' ? 'case.notRecovered' : 'case.recoveryPending'),
      });
    default:
      return t('case.event.other', { kind: entry.action });
  }
}

const isStatus = (value: string): value is CaseStatus => (CASE_STATUSES as readonly string[]).includes(value);
