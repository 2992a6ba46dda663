import { html, type SafeHtml } from '../html.js';
import type { AdminJourneysKey } from '../i18n/catalogue.js';
import { ADMIN_JOURNEYS } from '../i18n/messages.js';
import { CHANNELS } from '../channels.js';
import { workspaceTranslator } from '../i18n/messages.js';
import { indicatorWords, sourceWords } from './words.js';
import { LOCALES } from '../locale.js';
import { APP_ADMIN_JOURNEYS_PATH } from '../session/paths.js';
import { type ConfigDocument } from '../tenants/config-schema.js';
import type { ClassConfig, JourneyConfig } from '../settings/journeys.js';
import { INDICATORS, type Indicator } from '../settings/scales.js';
import type { WebAnswer } from '../web-answer.js';
import { redirect } from '../web-answer.js';
import {
  adminFrame,
  etagField,
  fieldError,
  problemsBox,
  type AdminFrame,
  type AdminPagePorts,
  type AdminPageRequest,
  type FieldErrors,
} from './admin-form.js';
import type { changeConfig as ConfigChange, ChangeOutcome } from './admin-config-form.js';

/** This page's frame: the shared words and its own. */
export type JourneysFrame = AdminFrame<AdminJourneysKey>;

/** What the journey form holds, as typed: a journey read, or the fields a refused form sent back. */
interface JourneyValues {
  id?: string | undefined;
  slug: string;
  name: string;
  indicator: string;
  classes: string[];
  channels: string[];
  questions: Partial<Record<(typeof LOCALES)[number], string>>;
}

const QUESTION = (locale: string) => `questions.${locale}`;

const valuesOf = (journey: JourneyConfig): JourneyValues => ({
  id: String(journey.id),
  slug: journey.slug,
  name: journey.name ?? '',
  indicator: journey.indicator,
  classes: journey.classes.map(String),
  channels: [...journey.channels],
  questions: { ...journey.questions },
});

const valuesFrom = (form: URLSearchParams): JourneyValues => ({
  id: form.get('id') ?? undefined,
  slug: (form.get('slug') ?? '').trim(),
  name: (form.get('name') ?? '').trim(),
  indicator: form.get('indicator') ?? '',
  classes: form.getAll('classes'),
  // One select per place in the order; an empty place is none, and a channel chosen twice counts once.
  channels: [...new Set(form.getAll('channels').filter((channel) => channel !== ''))],
  questions: Object.fromEntries(LOCALES.map((locale) => [locale, (form.get(QUESTION(locale)) ?? '').trim()]).filter(([, text]) => text)),
});

const EMPTY: JourneyValues = { slug: '', name: '', indicator: 'nps', classes: [], channels: [], questions: {} };

/**
 * The tenant admin's journeys page (issue 34 §6): the journeys and the items (classes) each asks, and a form that adds
 * one or edits one (slug, name, indicator, items, channels, the main question in each language), written through the
 * configuration service as `PUT /public/admin/config` writes.
 */
export function adminJourneysPage(ports: AdminPagePorts) {
  async function showJourneys(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_JOURNEYS_PATH, own: ADMIN_JOURNEYS });
    if (refused) return refused;
    const { config, version } = await ports.readConfig(request.tenantId);
    const editing = config.journeys.find((journey) => String(journey.id) === request.query.edit);
    const saved = config.journeys.find((journey) => journey.slug === request.query.saved);
    return render({
      frame,
      base: request.base,
      status: 200,
      config,
      version,
      values: editing ? valuesOf(editing) : EMPTY,
      outcome: undefined,
      saved: saved?.slug,
    });
  }

  return { showJourneys };
}

/**
 * The form's post: the change checked by the tenant file's schema (`changeConfig`, admin-config-form.ts), given by the
 * post's wiring only, so that the page's function does not build that schema.
 */
export function adminJourneysForm(ports: AdminPagePorts, changeConfig: typeof ConfigChange) {
  async function saveJourney(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_JOURNEYS_PATH, own: ADMIN_JOURNEYS });
    if (refused) return refused;
    const sent = valuesFrom(request.form);
    let index = -1;
    const outcome = await changeConfig(ports, {
      request,
      change: (config) => {
        index = config.journeys.findIndex((journey) => sent.id !== undefined && String(journey.id) === sent.id);
        const journey = journeyOf(sent, config.journeys[index], config);
        if (index < 0) index = config.journeys.length;
        const journeys = [...config.journeys];
        journeys[index] = journey as JourneyConfig;
        return { ...config, journeys };
      },
      fieldOf: (path) => {
        const [list, at, field, language] = path.split('.');
        if (list !== 'journeys' || Number(at) !== index || !field || field === 'id') return '';
        return field === 'questions' && language ? QUESTION(language) : field;
      },
      say: frame.say,
    });
    if (outcome.kind === 'saved') return redirect(`${request.base}${APP_ADMIN_JOURNEYS_PATH}?saved=${encodeURIComponent(sent.slug)}`);
    return render({
      frame,
      base: request.base,
      status: outcome.kind === 'stale' ? 409 : 400,
      config: outcome.config,
      version: outcome.version,
      values: sent,
      outcome,
    });
  }

  return { saveJourney };
}

/**
 * The journey a form describes, over the one it edits: what the form does not show (follow-ups, thanks, attempts,
 * hand-off, validity) is kept. A new journey takes the next id. The schema checks the result, so values are as sent.
 */
function journeyOf(sent: JourneyValues, existing: JourneyConfig | undefined, config: ConfigDocument): unknown {
  const { questions: _questions, name: _name, ...kept } = existing ?? ({} as Partial<JourneyConfig>);
  return {
    ...kept,
    id: existing?.id ?? Math.max(0, ...config.journeys.map((journey) => journey.id)) + 1,
    slug: sent.slug,
    ...(sent.name ? { name: sent.name } : {}),
    indicator: sent.indicator,
    classes: sent.classes.map(Number),
    channels: sent.channels,
    ...(Object.keys(sent.questions).length ? { questions: sent.questions } : {}),
  };
}

function render({
  frame,
  base,
  status,
  config,
  version,
  values,
  outcome,
  saved,
}: {
  frame: JourneysFrame;
  base: string;
  status: number;
  config: ConfigDocument;
  version: number;
  values: JourneyValues;
  outcome?: Exclude<ChangeOutcome, { kind: 'saved' }>;
  saved?: string;
}): WebAnswer {
  const { t } = frame;
  const classes = new Map(config.classes.map((c) => [c.id, c]));
  const list = config.journeys.length
    ? html`<ul class="items" aria-labelledby="journeys-title">${config.journeys.map((journey) => journeyItem({ frame, base, journey, classes }))}</ul>`
    : html`<p>${t('admin.journeys.noneYet')}</p>`;
  const body = html`<h1>${t('admin.journeys')}</h1>
<p class="hint">${t('admin.journeys.journeysIntro')}</p>
${saved ? html`<p class="saved" role="status">${t('admin.journeys.saved', { slug: saved })}</p>` : ''}
${outcome ? problemsBox({ t: frame.t, outcome, labels: labelsOf(frame), formId: 'journey-form' }) : ''}
<p><a href="#journey-form">${t('admin.journeys.newJourney')}</a></p>
<h2 id="journeys-title">${t('admin.journeys.journeyList')}</h2>
${list}
${journeyForm({ frame, base, classes: config.classes, version, values, errors: outcome?.errors })}`;
  return frame.page(status, t('admin.journeys'), body);
}

/** A rated item and its scale, in the words of the journey's own scale select. */
const itemWords = (frame: JourneysFrame, item: ClassConfig) =>
  `${item.label} — ${indicatorWords(workspaceTranslator(frame.locale), item.type)}`;

function journeyItem({
  frame,
  base,
  journey,
  classes,
}: {
  frame: JourneysFrame;
  base: string;
  journey: JourneyConfig;
  classes: Map<number, ClassConfig>;
}): SafeHtml {
  const { t } = frame;
  const items = journey.classes.map((id) => {
    const item = classes.get(id);
    return item ? itemWords(frame, item) : `#${id}`;
  });
  const questions = LOCALES.filter((locale) => journey.questions?.[locale]).map(
    (locale) =>
      html`<li><span class="hint">${t(`admin.journeys.languages.${locale}`)}:</span> <span lang="${locale}">${journey.questions![locale]!}</span></li>`,
  );
  const name = journey.name ?? journey.slug;
  return html`<li class="card" id="journey-${journey.id}">
<h3>${name} <code>${journey.slug}</code></h3>
<p>${indicatorWords(workspaceTranslator(frame.locale), journey.indicator)} · ${journey.channels.map((c) => sourceWords(workspaceTranslator(frame.locale), c)).join(', ')}</p>
<p><span class="hint">${t('admin.journeys.classes')}:</span> ${items.length ? items.join(', ') : t('admin.journeys.noClasses')}</p>
${questions.length ? html`<ul class="texts">${questions}</ul>` : ''}
<p><a href="${`${base}${APP_ADMIN_JOURNEYS_PATH}?edit=${journey.id}#journey-form`}">${t('admin.journeys.edit')}<span class="visually-hidden"> ${name}</span></a></p>
</li>`;
}

/** Each form field's label and input id, for the problems box's links. */
const labelsOf = ({ t }: JourneysFrame): Record<string, { label: string; id: string }> => ({
  slug: { label: t('admin.slug'), id: 'j-slug' },
  name: { label: t('admin.name'), id: 'j-name' },
  indicator: { label: t('admin.journeys.indicator'), id: 'j-indicator' },
  classes: { label: t('admin.journeys.classes'), id: 'j-classes' },
  channels: { label: t('admin.journeys.channels'), id: 'j-channels' },
  ...Object.fromEntries(
    LOCALES.map((locale) => [
      QUESTION(locale),
      { label: `${t('admin.journeys.question')} (${t(`admin.journeys.languages.${locale}`)})`, id: `j-questions-${locale}` },
    ]),
  ),
});

function journeyForm({
  frame,
  base,
  classes,
  version,
  values,
  errors,
}: {
  frame: JourneysFrame;
  base: string;
  classes: ClassConfig[];
  version: number;
  values: JourneyValues;
  errors: FieldErrors | undefined;
}): SafeHtml {
  const { t } = frame;
  const editing = values.id !== undefined;
  const input = ({ field, label, extra, hint }: { field: string; label: string; extra: SafeHtml; hint?: string }) => {
    const id = `j-${field.replace('.', '-')}`;
    const hintId = hint ? `${id}-hint` : undefined;
    const error = fieldError({ errors, field, id, hintId });
    const value = field.startsWith('questions.')
      ? (values.questions[field.slice(10) as 'es'] ?? '')
      : String(values[field as 'slug'] ?? '');
    return html`<div class="field"><label for="${id}">${label}</label>
<input id="${id}" name="${field}" value="${value}"${extra}${error.attributes}${error.invalid}>
${hint ? html`<p class="hint" id="${hintId}">${hint}</p>` : ''}${error.html}</div>`;
  };
  const checks = (field: 'classes', legend: string, options: [string, string][]) => {
    const error = fieldError({ errors, field, id: `j-${field}` });
    return html`<fieldset id="j-${field}" tabindex="-1"${error.attributes}><legend>${legend}</legend><div class="checks">${options.map(
      ([value, label]) =>
        html`<label class="check"><input type="checkbox" name="${field}" value="${value}"${values[field].includes(value) ? ' checked' : ''}> ${label}</label>`,
    )}</div>${error.html}</fieldset>`;
  };
  // The channels are tried in order, so each place in the order is a select of its own (no script needed to reorder).
  const channelsError = fieldError({ errors, field: 'channels', id: 'j-channels' });
  const channels = html`<fieldset id="j-channels" tabindex="-1"${channelsError.attributes}><legend>${t('admin.journeys.channels')}</legend><div class="places">${CHANNELS.map(
    (_, place) =>
      html`<div class="field"><label for="j-channel-${place}">${t('admin.journeys.channelAt', { place: place + 1 })}</label><select id="j-channel-${place}" name="channels"><option value="">${t('admin.journeys.noChannel')}</option>${CHANNELS.map(
        (channel) =>
          html`<option value="${channel}"${values.channels[place] === channel ? ' selected' : ''}>${sourceWords(workspaceTranslator(frame.locale), channel)}</option>`,
      )}</select></div>`,
  )}</div>${channelsError.html}</fieldset>`;
  const indicatorError = fieldError({ errors, field: 'indicator', id: 'j-indicator' });
  const title = editing ? t('admin.journeys.editJourney', { name: values.name || values.slug }) : t('admin.journeys.newJourney');
  return html`<section class="card form" id="journey-form" aria-labelledby="journey-form-title">
<h2 id="journey-form-title">${title}</h2>
<form method="post" action="${base + APP_ADMIN_JOURNEYS_PATH}" novalidate>
${etagField(version)}${editing ? html`<input type="hidden" name="id" value="${values.id!}">` : ''}
${input({ field: 'slug', label: t('admin.slug'), extra: html` required maxlength="64" autocapitalize="none" spellcheck="false"`, hint: t('admin.journeys.slugHint') })}
${input({ field: 'name', label: t('admin.name'), extra: html` maxlength="200"` })}
<div class="field"><label for="j-indicator">${t('admin.journeys.indicator')}</label>
<select id="j-indicator" name="indicator"${indicatorError.attributes}${indicatorError.invalid}>${(
    Object.keys(INDICATORS) as Indicator[]
  ).map(
    (i) =>
      html`<option value="${i}"${values.indicator === i ? ' selected' : ''}>${indicatorWords(workspaceTranslator(frame.locale), i)}</option>`,
  )}</select>${indicatorError.html}</div>
${checks(
  'classes',
  t('admin.journeys.classes'),
  classes.map((c) => [String(c.id), itemWords(frame, c)]),
)}
${channels}
<fieldset><legend>${t('admin.journeys.question')}</legend><p class="hint" id="j-questions-hint">${t('admin.journeys.questionHint')}</p>
${LOCALES.map((locale) => input({ field: QUESTION(locale), label: t(`admin.journeys.languages.${locale}`), extra: html` maxlength="300" lang="${locale}"` }))}</fieldset>
<div class="actions"><button type="submit">${t('admin.save')}</button>${
    editing ? html` <a href="${base + APP_ADMIN_JOURNEYS_PATH}#journey-form">${t('admin.journeys.cancelEdit')}</a>` : ''
  }</div>
</form></section>`;
}
