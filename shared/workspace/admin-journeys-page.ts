import { CHANNEL_RECORDS, CHANNELS } from '../channels.js';
import { LOCALES } from '../locale.js';
import { APP_ADMIN_JOURNEYS_PATH } from '../session/paths.js';
import { escapeHtml } from '../surveys/compose.js';
import type { ClassConfig, ConfigDocument, JourneyConfig } from '../tenants/config-schema.js';
import { INDICATORS, type Indicator } from '../tenants/scales.js';
import type { WebAnswer } from './answer.js';
import { redirect } from './answer.js';
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
import type { AdminText } from './admin-text.js';
import { JOURNEYS_TEXT, type JourneysText } from './admin-journeys-text.js';

/** This page's frame: the shared words and its own. */
export type JourneysFrame = AdminFrame<AdminText & JourneysText>;

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
    const { frame, refused } = await adminFrame(ports, request, APP_ADMIN_JOURNEYS_PATH, JOURNEYS_TEXT);
    if (refused) return refused;
    const { config, version } = await ports.readConfig(request.tenantId);
    const editing = config.journeys.find((journey) => String(journey.id) === request.query.edit);
    const saved = config.journeys.find((journey) => journey.slug === request.query.saved);
    return render(frame, request.base, 200, config, version, editing ? valuesOf(editing) : EMPTY, undefined, saved?.slug);
  }

  return { showJourneys };
}

/**
 * The form's post: the change checked by the tenant file's schema (`changeConfig`, admin-config-form.ts), given by the
 * post's wiring only, so that the page's function does not build that schema.
 */
export function adminJourneysForm(ports: AdminPagePorts, changeConfig: typeof ConfigChange) {
  async function saveJourney(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame(ports, request, APP_ADMIN_JOURNEYS_PATH, JOURNEYS_TEXT);
    if (refused) return refused;
    const sent = valuesFrom(request.form);
    let index = -1;
    const outcome = await changeConfig(
      ports,
      request,
      (config) => {
        index = config.journeys.findIndex((journey) => sent.id !== undefined && String(journey.id) === sent.id);
        const journey = journeyOf(sent, config.journeys[index], config);
        if (index < 0) index = config.journeys.length;
        const journeys = [...config.journeys];
        journeys[index] = journey as JourneyConfig;
        return { ...config, journeys };
      },
      (path) => {
        const [list, at, field, language] = path.split('.');
        if (list !== 'journeys' || Number(at) !== index || !field || field === 'id') return '';
        return field === 'questions' && language ? QUESTION(language) : field;
      },
      frame.say,
    );
    if (outcome.kind === 'saved') return redirect(`${request.base}${APP_ADMIN_JOURNEYS_PATH}?saved=${encodeURIComponent(sent.slug)}`);
    return render(frame, request.base, outcome.kind === 'stale' ? 409 : 400, outcome.config, outcome.version, sent, outcome);
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

function render(
  frame: JourneysFrame,
  base: string,
  status: number,
  config: ConfigDocument,
  version: number,
  values: JourneyValues,
  outcome?: Exclude<ChangeOutcome, { kind: 'saved' }>,
  saved?: string,
): WebAnswer {
  const { text } = frame;
  const classes = new Map(config.classes.map((c) => [c.id, c]));
  const list = config.journeys.length
    ? `<ul class="items" aria-labelledby="journeys-title">${config.journeys.map((journey) => journeyItem(frame, base, journey, classes)).join('')}</ul>`
    : `<p>${escapeHtml(text.noneYet)}</p>`;
  const body = `<h1>${escapeHtml(text.journeys)}</h1>
<p class="hint">${escapeHtml(text.journeysIntro)}</p>
${saved ? `<p class="saved" role="status">${escapeHtml(text.saved(saved))}</p>` : ''}
${outcome ? problemsBox(text, outcome, labelsOf(frame), 'journey-form') : ''}
<p><a href="#journey-form">${escapeHtml(text.newJourney)}</a></p>
<h2 id="journeys-title">${escapeHtml(text.journeyList)}</h2>
${list}
${journeyForm(frame, base, config.classes, version, values, outcome?.errors)}`;
  return frame.page(status, text.journeys, body);
}

function journeyItem(frame: JourneysFrame, base: string, journey: JourneyConfig, classes: Map<number, ClassConfig>): string {
  const { text } = frame;
  const items = journey.classes.map((id) => {
    const item = classes.get(id);
    return item ? `${item.label} (${item.type})` : `#${id}`;
  });
  const questions = LOCALES.filter((locale) => journey.questions?.[locale]).map(
    (locale) =>
      `<li><span class="hint">${escapeHtml(text.languages[locale])}:</span> <span lang="${locale}">${escapeHtml(journey.questions![locale]!)}</span></li>`,
  );
  const name = journey.name ?? journey.slug;
  return `<li class="card" id="journey-${journey.id}">
<h3>${escapeHtml(name)} <code>${escapeHtml(journey.slug)}</code></h3>
<p>${escapeHtml(text.indicators[journey.indicator])} · ${journey.channels.map((c) => escapeHtml(CHANNEL_RECORDS[c].label)).join(', ')}</p>
<p><span class="hint">${escapeHtml(text.classes)}:</span> ${escapeHtml(items.length ? items.join(', ') : text.noClasses)}</p>
${questions.length ? `<ul class="texts">${questions.join('')}</ul>` : ''}
<p><a href="${escapeHtml(`${base}${APP_ADMIN_JOURNEYS_PATH}?edit=${journey.id}#journey-form`)}">${escapeHtml(text.edit)}<span class="visually-hidden"> ${escapeHtml(name)}</span></a></p>
</li>`;
}

/** Each form field's label and input id, for the problems box's links. */
const labelsOf = ({ text }: JourneysFrame): Record<string, { label: string; id: string }> => ({
  slug: { label: text.slug, id: 'j-slug' },
  name: { label: text.name, id: 'j-name' },
  indicator: { label: text.indicator, id: 'j-indicator' },
  classes: { label: text.classes, id: 'j-classes' },
  channels: { label: text.channels, id: 'j-channels' },
  ...Object.fromEntries(
    LOCALES.map((locale) => [QUESTION(locale), { label: `${text.question} (${text.languages[locale]})`, id: `j-questions-${locale}` }]),
  ),
});

function journeyForm(
  frame: JourneysFrame,
  base: string,
  classes: ClassConfig[],
  version: number,
  values: JourneyValues,
  errors: FieldErrors | undefined,
): string {
  const { text } = frame;
  const editing = values.id !== undefined;
  const input = (field: string, label: string, extra: string, hint?: string) => {
    const id = `j-${field.replace('.', '-')}`;
    const hintId = hint ? `${id}-hint` : undefined;
    const error = fieldError(errors, field, id, hintId);
    const value = field.startsWith('questions.')
      ? (values.questions[field.slice(10) as 'es'] ?? '')
      : String(values[field as 'slug'] ?? '');
    return `<div class="field"><label for="${id}">${escapeHtml(label)}</label>
<input id="${id}" name="${escapeHtml(field)}" value="${escapeHtml(value)}"${extra}${error.attributes}${error.invalid}>
${hint ? `<p class="hint" id="${hintId}">${escapeHtml(hint)}</p>` : ''}${error.html}</div>`;
  };
  const checks = (field: 'classes', legend: string, options: [string, string][]) => {
    const error = fieldError(errors, field, `j-${field}`);
    return `<fieldset id="j-${field}" tabindex="-1"${error.attributes}><legend>${escapeHtml(legend)}</legend><div class="checks">${options
      .map(
        ([value, label]) =>
          `<label class="check"><input type="checkbox" name="${field}" value="${escapeHtml(value)}"${values[field].includes(value) ? ' checked' : ''}> ${escapeHtml(label)}</label>`,
      )
      .join('')}</div>${error.html}</fieldset>`;
  };
  // The channels are tried in order, so each place in the order is a select of its own (no script needed to reorder).
  const channelsError = fieldError(errors, 'channels', 'j-channels');
  const channels = `<fieldset id="j-channels" tabindex="-1"${channelsError.attributes}><legend>${escapeHtml(text.channels)}</legend><div class="places">${CHANNELS.map(
    (_, place) =>
      `<div class="field"><label for="j-channel-${place}">${escapeHtml(text.channelAt(place + 1))}</label><select id="j-channel-${place}" name="channels"><option value="">${escapeHtml(text.noChannel)}</option>${CHANNELS.map(
        (channel) =>
          `<option value="${channel}"${values.channels[place] === channel ? ' selected' : ''}>${escapeHtml(CHANNEL_RECORDS[channel].label)}</option>`,
      ).join('')}</select></div>`,
  ).join('')}</div>${channelsError.html}</fieldset>`;
  const indicatorError = fieldError(errors, 'indicator', 'j-indicator');
  const title = editing ? text.editJourney(values.name || values.slug) : text.newJourney;
  return `<section class="card form" id="journey-form" aria-labelledby="journey-form-title">
<h2 id="journey-form-title">${escapeHtml(title)}</h2>
<form method="post" action="${escapeHtml(base + APP_ADMIN_JOURNEYS_PATH)}" novalidate>
${etagField(version)}${editing ? `<input type="hidden" name="id" value="${escapeHtml(values.id!)}">` : ''}
${input('slug', text.slug, ' required maxlength="64" autocapitalize="none" spellcheck="false"', text.slugHint)}
${input('name', text.name, ' maxlength="200"')}
<div class="field"><label for="j-indicator">${escapeHtml(text.indicator)}</label>
<select id="j-indicator" name="indicator"${indicatorError.attributes}${indicatorError.invalid}>${(Object.keys(INDICATORS) as Indicator[])
    .map((i) => `<option value="${i}"${values.indicator === i ? ' selected' : ''}>${escapeHtml(text.indicators[i])}</option>`)
    .join('')}</select>${indicatorError.html}</div>
${checks(
  'classes',
  text.classes,
  classes.map((c) => [String(c.id), `${c.label} (${c.type})`]),
)}
${channels}
<fieldset><legend>${escapeHtml(text.question)}</legend><p class="hint" id="j-questions-hint">${escapeHtml(text.questionHint)}</p>
${LOCALES.map((locale) => input(QUESTION(locale), text.languages[locale], ` maxlength="300" lang="${locale}"`)).join('')}</fieldset>
<div class="actions"><button type="submit">${escapeHtml(text.save)}</button>${
    editing ? ` <a href="${escapeHtml(base + APP_ADMIN_JOURNEYS_PATH)}#journey-form">${escapeHtml(text.cancelEdit)}</a>` : ''
  }</div>
</form></section>`;
}
