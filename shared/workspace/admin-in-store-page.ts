import * as v from 'valibot';
import type { AuditActor } from '../audit/log.js';
import { brandOf } from '../brand/brand.js';
import { DomainError } from '../errors.js';
import { colour, html, raw, safeUrl, type HtmlValue, type SafeHtml } from '../html.js';
import type { AdminInStoreKey } from '../i18n/catalogue.js';
import { ADMIN_IN_STORE, translator } from '../i18n/messages.js';
import { KIOSK_DAILY_CAP, KioskIdPath, NewKioskBody, type KioskView, type RegisteredKioskView } from '../in-store/kiosk-schema.js';
import type { QrTarget } from '../in-store/qr-admin.js';
import { APP_ADMIN_QR_PATH } from '../session/paths.js';
import { questionOf } from '../surveys/questions.js';
import type { Settings } from '../settings/settings.js';
import { redirect, type WebAnswer } from '../web-answer.js';
import {
  addError,
  adminFrame,
  confirmed,
  confirmedAction,
  inputField,
  postForm,
  problemsBox,
  readShownOnce,
  redirectShowingOnce,
  selectField,
  submitButton,
  type AdminFrame,
  type AdminPageRequest,
  type FieldErrors,
  type ShownOncePorts,
} from './admin-form.js';
import { MAX_CHOICES } from './words.js';

type InStoreFrame = AdminFrame<AdminInStoreKey>;

/** The services the page shares with GET /public/admin/qr and /public/admin/kiosks, and the store names it shows. */
export interface InStorePorts {
  settings(tenantId: number): Promise<Settings>;
  /** The tenant's stores by name, or undefined when there are more than `most` (then their codes are typed). */
  storeChoices(tenantId: number, most: number): Promise<Map<number, string> | undefined>;
  storeNames(tenantId: number, ids: number[]): Promise<Map<number, string>>;
  /** A store's code's URL (its store must exist, its journey be the tenant's): GET /public/admin/qr's. */
  qrUrl(tenantId: number, target: QrTarget): Promise<string>;
  /** The code's picture, as GET /public/admin/qr draws it. */
  qrSvg(url: string): Promise<string>;
  kiosks: {
    list(tenantId: number): Promise<KioskView[]>;
    register(tenantId: number, body: NewKioskBody, actor: AuditActor): Promise<RegisteredKioskView>;
    revoke(tenantId: number, id: string, actor: AuditActor): Promise<KioskView>;
    /** The answers each kiosk took today in the tenant's zone (its daily cap's counter), by id. */
    today(tenantId: number, ids: string[], zone: string): Promise<Map<string, number>>;
  };
  shownOnce: ShownOncePorts;
}

/** The paper sizes a poster is laid out for (a named page each in the stylesheet: `@page a4`, `@page a6`). */
export const POSTER_SIZES = ['a4', 'a6'] as const;
type PosterSize = (typeof POSTER_SIZES)[number];

/** What the poster's form asks, as typed (the first store and journey when it has not been sent). */
interface PosterValues {
  store: string;
  journey: string;
  employee: string;
  size: PosterSize;
}

/** What the kiosk form holds, as typed. */
interface KioskValues {
  name: string;
  store: string;
  journey: string;
  employee: string;
  daily_cap: string;
}

const KIOSK_FIELDS = ['name', 'store', 'journey', 'employee', 'daily_cap'] as const;
const wholeOrAsSent = (value: string) => (/^\d{1,9}$/.test(value) ? Number(value) : value || undefined);

/**
 * The tenant admin's in-store page (issue 50): a store's QR code poster to print (the tenant's logo and colour, the
 * journey's question, the code, the store's name; A4 or A6, only the poster printed) and the tenant's kiosks (list,
 * register with the tablet's address shown once, revoke once confirmed), over the services of GET /public/admin/qr and
 * /public/admin/kiosks, audited as they are.
 */
export function adminInStorePage(ports: InStorePorts) {
  async function showInStore(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_QR_PATH, own: ADMIN_IN_STORE });
    if (refused) return refused;
    const { t } = frame;
    const { shown, cookies } = await readShownOnce(ports.shownOnce, request, APP_ADMIN_QR_PATH);
    const done = { revoked: t('admin.inStore.revoked'), registered: t('admin.inStore.registeredGone') }[request.query.done ?? ''];
    const notice = shown
      ? html`<div class="saved" role="status"><p>${shown.notice}</p><p><a href="${safeUrl(shown.secret)}"><code id="kiosk-url" class="secret">${shown.secret}</code></a></p></div>`
      : done && html`<p class="saved" role="status">${done}</p>`;
    return { ...(await render({ frame, request, status: 200, kioskForm: undefined, notice })), cookies };
  }

  async function saveInStore(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_QR_PATH, own: ADMIN_IN_STORE });
    if (refused) return refused;
    const { form, tenantId } = request;
    const { t } = frame;
    const actor = { user: request.user.name };
    const sent = Object.fromEntries(KIOSK_FIELDS.map((field) => [field, (form.get(field) ?? '').trim()])) as unknown as KioskValues;
    const errors: FieldErrors = new Map();
    try {
      if (form.get('action') === 'revoke') {
        const id = { id: form.get('id') ?? '' };
        if (!confirmed(form)) addError(errors, '', t('admin.confirmRequired'));
        else if (!v.is(KioskIdPath, id)) addError(errors, '', t('admin.inStore.kioskGone'));
        else {
          await ports.kiosks.revoke(tenantId, id.id, actor);
          return redirect(`${request.base}${APP_ADMIN_QR_PATH}?done=revoked`);
        }
      } else {
        const body = v.safeParse(NewKioskBody, {
          name: sent.name,
          store: wholeOrAsSent(sent.store),
          journey: sent.journey,
          ...(sent.employee ? { employee: wholeOrAsSent(sent.employee) } : {}),
          ...(sent.daily_cap ? { daily_cap: wholeOrAsSent(sent.daily_cap) } : {}),
        });
        if (body.success) {
          const kiosk = await ports.kiosks.register(tenantId, body.output, actor);
          return redirectShowingOnce({
            ports: ports.shownOnce,
            request,
            path: APP_ADMIN_QR_PATH,
            query: 'done=registered#kiosks-title',
            shown: {
              notice: t('admin.inStore.registered'),
              secret: kiosk.url,
            },
          });
        }
        for (const issue of body.issues) addError(errors, fieldOf(v.getDotPath(issue) ?? ''), frame.say(issue.message));
      }
    } catch (error) {
      if (!(error instanceof DomainError) || !['validation', 'not-found'].includes(error.kind)) throw error;
      if (!error.errors.length) addError(errors, '', t('admin.inStore.kioskGone'));
      for (const problem of error.errors) addError(errors, fieldOf(problem.path), problemWords(frame, problem));
    }
    const box = problemsBox({ t: frame.t, outcome: { kind: 'invalid', errors }, labels: kioskLabels(frame), formId: 'kiosk-form' });
    return render({ frame, request, status: 400, kioskForm: { values: sent, errors }, notice: box });
  }

  async function render({
    frame,
    request,
    status,
    kioskForm,
    notice,
  }: {
    frame: InStoreFrame;
    request: AdminPageRequest;
    status: number;
    kioskForm: { values: KioskValues; errors: FieldErrors } | undefined;
    notice: HtmlValue;
  }) {
    const { t } = frame;
    const [settings, choices, kiosks] = await Promise.all([
      ports.settings(request.tenantId),
      ports.storeChoices(request.tenantId, MAX_CHOICES),
      ports.kiosks.list(request.tenantId),
    ]);
    const firstStore = choices && [...choices].sort(([, a], [, b]) => a.localeCompare(b))[0]?.[0];
    const size = POSTER_SIZES.find((s) => s === request.query.size) ?? 'a4';
    const poster: PosterValues = {
      store: request.query.store ?? (firstStore ? String(firstStore) : ''),
      journey: request.query.journey ?? settings.journeys[0]?.slug ?? '',
      employee: request.query.employee ?? '',
      size,
    };
    const drawn = await posterOf({ frame, request, settings, values: poster });
    const listed = [...new Set(kiosks.map((kiosk) => kiosk.store))];
    const active = kiosks.filter((kiosk) => !kiosk.revoked_at).map((kiosk) => kiosk.id);
    const [names, today] = await Promise.all([
      choices ?? ports.storeNames(request.tenantId, listed),
      ports.kiosks.today(request.tenantId, active, frame.timeZone),
    ]);
    const journeys = settings.journeys.map((j) => [j.slug, j.name ?? j.slug] as const);
    const body = html`<div class="no-print"><h1>${t('admin.inStore')}</h1>
<p class="hint">${t('admin.inStore.intro')}</p>
${notice}
<h2 id="poster-title">${t('admin.inStore.poster')}</h2>
${posterForm({ frame, base: request.base, values: poster, choices, journeys, errors: drawn.errors })}
${drawn.poster && html`<p class="hint">${t('admin.inStore.printHint', { size: size.toUpperCase() })}</p>`}
</div>
${drawn.poster}
<section class="no-print" aria-labelledby="kiosks-title">
<h2 id="kiosks-title">${t('admin.inStore.kiosks')}</h2>
<p class="hint">${t('admin.inStore.kiosksIntro')}</p>
${kiosks.length ? html`<ul class="items" id="kiosks">${kiosks.map((kiosk) => kioskItem({ frame, base: request.base, kiosk, names, today: today.get(kiosk.id) }))}</ul>` : html`<p>${t('admin.inStore.noKiosks')}</p>`}
${kioskFormOf({ frame, base: request.base, values: kioskForm?.values ?? { ...poster, name: '', daily_cap: String(KIOSK_DAILY_CAP.default) }, choices, journeys, errors: kioskForm?.errors })}
</section>`;
    return frame.page(status, t('admin.inStore'), body);
  }

  /** The poster of the form's store and journey, or the errors that name what is wrong with them. */
  async function posterOf({
    frame,
    request,
    settings,
    values,
  }: {
    frame: InStoreFrame;
    request: AdminPageRequest;
    settings: Settings;
    values: PosterValues;
  }) {
    const errors: FieldErrors = new Map();
    // No store asked, and none to start with (the tenant has none, or more than a select holds): the form alone.
    if (!values.store) return { errors, poster: '' };
    const store = wholeOrAsSent(values.store);
    const employee = values.employee ? wholeOrAsSent(values.employee) : undefined;
    if (typeof store !== 'number' || store < 1) addError(errors, 'store', frame.t('admin.inStore.noStore'));
    if (employee !== undefined && (typeof employee !== 'number' || employee < 1))
      addError(errors, 'employee', frame.t('admin.problems.number'));
    const journey = settings.journeys.find((j) => j.slug === values.journey);
    if (!journey) addError(errors, 'journey', frame.t('admin.inStore.noJourney'));
    if (errors.size || !journey || typeof store !== 'number') return { errors, poster: '' };
    let url: string;
    try {
      url = await ports.qrUrl(request.tenantId, { store, journey: journey.slug, employee: employee as number | undefined });
    } catch (error) {
      if (!(error instanceof DomainError) || !['validation', 'not-found'].includes(error.kind)) throw error;
      const problems = error.kind === 'not-found' ? [{ path: 'store', message: '' }] : error.errors;
      for (const problem of problems) addError(errors, problem.path, problemWords(frame, problem));
      return { errors, poster: '' };
    }
    const [svg, names] = await Promise.all([ports.qrSvg(url), ports.storeNames(request.tenantId, [store])]);
    const brand = brandOf(settings);
    const company = brand.name || (names.get(store) ?? '');
    const question = questionOf({ journey, company, locale: frame.locale, t: translator(frame.locale) });
    return {
      errors,
      poster: posterHtml(frame, request.base, {
        brand,
        company,
        question,
        svg,
        url,
        store: names.get(store) ?? `#${store}`,
        size: values.size,
      }),
    };
  }

  return { showInStore, saveInStore };
}

/** The form field a service's or a schema's path names; '' for what belongs to none. */
const fieldOf = (path: string) => ((KIOSK_FIELDS as readonly string[]).includes(path) ? path : '');

/** The words of a service's problem with a field (shared/in-store/entry.ts's `placeProblems`, an unknown journey). */
const problemWords = (frame: InStoreFrame, { path, message }: { path: string; message: string }) =>
  path === 'store'
    ? frame.t(message.endsWith('inactive') ? 'admin.inStore.storeInactive' : 'admin.inStore.noStore')
    : path === 'journey'
      ? frame.t('admin.inStore.noJourney')
      : path === 'employee'
        ? frame.t('admin.inStore.notAtStore')
        : frame.t('admin.problems.invalid');

const kioskLabels = ({ t }: InStoreFrame) => ({
  name: { label: t('admin.inStore.kioskName'), id: 'k-name' },
  store: { label: t('admin.inStore.store'), id: 'k-store' },
  journey: { label: t('admin.inStore.journey'), id: 'k-journey' },
  employee: { label: t('admin.inStore.employee'), id: 'k-employee' },
  daily_cap: { label: t('admin.inStore.dailyCap'), id: 'k-daily_cap' },
});

/** A store chosen by name, or typed as its code when the tenant has more than a select holds. */
function storeChoice({
  frame,
  id,
  value,
  choices,
  errors,
}: {
  frame: InStoreFrame;
  id: string;
  value: string;
  choices: Map<number, string> | undefined;
  errors?: FieldErrors;
}) {
  if (!choices)
    return inputField({
      id,
      name: 'store',
      label: frame.t('admin.inStore.storeCode'),
      value,
      errors,
      attributes: html` inputmode="numeric" required`,
    });
  if (!choices.size) return html`<p>${frame.t('admin.inStore.noStores')}</p>`;
  const options = [...choices].sort(([, a], [, b]) => a.localeCompare(b)).map(([code, name]) => [String(code), name] as const);
  return selectField({ id, name: 'store', label: frame.t('admin.inStore.store'), value, options, errors });
}

function posterForm({
  frame,
  base,
  values,
  choices,
  journeys,
  errors,
}: {
  frame: InStoreFrame;
  base: string;
  values: PosterValues;
  choices: Map<number, string> | undefined;
  journeys: readonly (readonly [string, string])[];
  errors: FieldErrors;
}): SafeHtml {
  const { t } = frame;
  return html`<form method="get" action="${base + APP_ADMIN_QR_PATH}" class="card form" id="poster-form">
${storeChoice({ frame, id: 'p-store', value: values.store, choices, errors })}
${selectField({ id: 'p-journey', name: 'journey', label: t('admin.inStore.journey'), value: values.journey, options: journeys, errors })}
${inputField({ id: 'p-employee', name: 'employee', label: t('admin.inStore.employee'), value: values.employee, errors, hint: t('admin.inStore.employeeHint'), attributes: html` inputmode="numeric"` })}
<fieldset><legend>${t('admin.inStore.size')}</legend>${POSTER_SIZES.map(
    (size) =>
      html`<label class="check"><input type="radio" name="size" value="${size}"${size === values.size && html` checked`}> ${t(`admin.inStore.sizes.${size}`)}</label>`,
  )}</fieldset>
<div class="actions">${submitButton(t('admin.inStore.show'))}</div>
</form>`;
}

/** The printed poster: the brand's colour (an SVG fill, which the page's style policy admits), logo and the code. */
function posterHtml(
  frame: InStoreFrame,
  base: string,
  o: { brand: ReturnType<typeof brandOf>; company: string; question: string; svg: string; url: string; store: string; size: PosterSize },
): SafeHtml {
  const band = html`<svg class="poster-band" viewBox="0 0 10 1" preserveAspectRatio="none" aria-hidden="true" focusable="false"><rect width="10" height="1" fill="${colour(o.brand.colour)}"/></svg>`;
  const logo = o.brand.logoUrl
    ? html`<img class="poster-logo" src="${safeUrl(base + o.brand.logoUrl)}" alt="${o.company}">`
    : html`<p class="poster-company">${o.company}</p>`;
  // The code's picture is drawn by `qrcode` from the URL: paths and fills only, no text of ours in it.
  return html`<section class="poster poster-${o.size}" id="poster" aria-labelledby="poster-question">
${band}
<div class="poster-body">${logo}
<h2 class="poster-question" id="poster-question">${o.question}</h2>
<div class="poster-qr" role="img" aria-label="${frame.t('admin.inStore.qrLabel', { url: o.url })}">${raw(o.svg)}</div>
<p class="poster-scan">${frame.t('admin.inStore.scan')}</p>
<p class="poster-store">${o.store}</p></div>
${band}
</section>`;
}

function kioskItem({
  frame,
  base,
  kiosk,
  names,
  today,
}: {
  frame: InStoreFrame;
  base: string;
  kiosk: KioskView;
  names: Map<number, string>;
  today?: number;
}): SafeHtml {
  const { t } = frame;
  const facts = [
    names.get(kiosk.store) ?? `#${kiosk.store}`,
    kiosk.journey,
    ...(kiosk.employee ? [t('admin.inStore.employeeOf', { id: kiosk.employee })] : []),
    ...(today === undefined ? [] : [t('admin.inStore.today', { count: today })]),
    t('admin.inStore.capOf', { cap: kiosk.daily_cap }),
    t('admin.inStore.created', { at: frame.dateTime(kiosk.created_at) }),
    ...(kiosk.revoked_at ? [t('admin.inStore.revokedAt', { at: frame.dateTime(kiosk.revoked_at) })] : []),
  ];
  const revoke = confirmedAction({
    action: base + APP_ADMIN_QR_PATH,
    fields: { action: 'revoke', id: kiosk.id },
    id: `revoke-${kiosk.id}`,
    label: t('admin.inStore.revoke'),
    about: kiosk.name,
    what: t('admin.inStore.revokeWhat'),
    confirm: t('admin.inStore.revokeConfirm'),
  });
  return html`<li class="card key${kiosk.revoked_at ? ' inactive' : ''}" id="kiosk-${kiosk.id}">
<h3>${kiosk.name} <code>${kiosk.id}</code></h3>
<p>${facts.join(' · ')}</p>
${kiosk.revoked_at ? '' : html`<div class="actions">${revoke}</div>`}
</li>`;
}

function kioskFormOf({
  frame,
  base,
  values,
  choices,
  journeys,
  errors,
}: {
  frame: InStoreFrame;
  base: string;
  values: KioskValues;
  choices: Map<number, string> | undefined;
  journeys: readonly (readonly [string, string])[];
  errors: FieldErrors | undefined;
}): SafeHtml {
  const { t } = frame;
  return html`<section class="card form" id="kiosk-form" aria-labelledby="kiosk-form-title">
<h3 id="kiosk-form-title">${t('admin.inStore.newKiosk')}</h3>
${postForm({
  action: base + APP_ADMIN_QR_PATH,
  fields: { action: 'register' },
  inner: html`${inputField({ id: 'k-name', name: 'name', label: t('admin.inStore.kioskName'), value: values.name, errors, hint: t('admin.inStore.kioskNameHint'), attributes: html` required maxlength="80"` })}
${storeChoice({ frame, id: 'k-store', value: values.store, choices, errors })}
${selectField({ id: 'k-journey', name: 'journey', label: t('admin.inStore.journey'), value: values.journey, options: journeys, errors })}
${inputField({ id: 'k-employee', name: 'employee', label: t('admin.inStore.employee'), value: values.employee, errors, hint: t('admin.inStore.employeeHint'), attributes: html` inputmode="numeric"` })}
${inputField({ id: 'k-daily_cap', name: 'daily_cap', label: t('admin.inStore.dailyCap'), value: values.daily_cap, errors, hint: t('admin.inStore.dailyCapHint', { zone: frame.timeZone }), attributes: html` type="number" min="${KIOSK_DAILY_CAP.min}" max="${KIOSK_DAILY_CAP.max}" required` })}
<div class="actions">${submitButton(t('admin.inStore.register'))}</div>`,
  attributes: html` novalidate`,
})}</section>`;
}
