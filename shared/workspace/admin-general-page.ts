import { html, type HtmlValue } from '../html.js';
import type { AdminGeneralKey } from '../i18n/catalogue.js';
import { ADMIN_GENERAL, LANGUAGE_NAMES } from '../i18n/messages.js';
import { LOCALES } from '../locale.js';
import { APP_ADMIN_GENERAL_PATH } from '../session/paths.js';
import { type ConfigDocument } from '../tenants/config-schema.js';
import { redirect, type WebAnswer } from '../web-answer.js';
import {
  adminFrame,
  etagField,
  fieldError,
  inputField,
  problemsBox,
  submitButton,
  type AdminFrame,
  type AdminPagePorts,
  type AdminPageRequest,
  type FieldErrors,
} from './admin-form.js';
import type { changeConfig as ConfigChange } from './admin-config-form.js';

/** This page's frame: the shared words and its own. */
export type GeneralFrame = AdminFrame<AdminGeneralKey>;

/** What the form holds, as typed. */
interface GeneralValues {
  name: string;
  locale: string;
  timeZone: string;
}

const FIELDS = ['name', 'locale', 'timeZone'] as const;
const valuesOf = (config: ConfigDocument): GeneralValues => ({ name: config.name, locale: config.locale, timeZone: config.timeZone });

/**
 * The tenant admin's general settings (issue 46 §1): the tenant's name, its language and its time zone, written through
 * the configuration service as `PUT /public/admin/config` writes them (the form carries the version it was read at).
 */
export function adminGeneralPage(ports: AdminPagePorts) {
  async function showGeneral(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_GENERAL_PATH, own: ADMIN_GENERAL });
    if (refused) return refused;
    const { config, version } = await ports.readConfig(request.tenantId);
    const notice = request.query.done === 'saved' && html`<p class="saved" role="status">${frame.t('admin.general.saved')}</p>`;
    return render({ frame, base: request.base, status: 200, version, values: valuesOf(config), notice });
  }
  return { showGeneral };
}

/** The form's post: checked by the tenant file's schema (`changeConfig`, given by the post's wiring only). */
export function adminGeneralForm(ports: AdminPagePorts, changeConfig: typeof ConfigChange) {
  async function saveGeneral(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_GENERAL_PATH, own: ADMIN_GENERAL });
    if (refused) return refused;
    const sent: GeneralValues = {
      name: (request.form.get('name') ?? '').trim(),
      locale: request.form.get('locale') ?? '',
      timeZone: request.form.get('timeZone') ?? '',
    };
    const outcome = await changeConfig(ports, {
      request,
      change: (config) => ({ ...config, ...sent }),
      fieldOf: (path) => ((FIELDS as readonly string[]).includes(path) ? path : ''),
      say: frame.say,
    });
    if (outcome.kind === 'saved') return redirect(`${request.base}${APP_ADMIN_GENERAL_PATH}?done=saved`);
    const notice = problemsBox({ t: frame.t, outcome, labels: labelsOf(frame), formId: 'general-form' });
    return render({
      frame,
      base: request.base,
      status: outcome.kind === 'stale' ? 409 : 400,
      version: outcome.version,
      values: sent,
      notice,
      errors: outcome.errors,
    });
  }
  return { saveGeneral };
}

const labelsOf = ({ t }: GeneralFrame) => ({
  name: { label: t('admin.general.name'), id: 'g-name' },
  locale: { label: t('admin.general.locale'), id: 'g-locale' },
  timeZone: { label: t('admin.general.timeZone'), id: 'g-timeZone' },
});

/** A select with its hint and error; each option in its own language when `lang` names it. */
function select(
  o: { id: string; name: string; label: string; hint: string; value: string; errors: FieldErrors | undefined },
  options: readonly (readonly [value: string, words: string, lang?: string])[],
) {
  const error = fieldError({ errors: o.errors, field: o.name, id: o.id, hintId: `${o.id}-hint` });
  return html`<div class="field"><label for="${o.id}">${o.label}</label>
<select id="${o.id}" name="${o.name}"${error.attributes}${error.invalid}>${options.map(
    ([value, words, lang]) =>
      html`<option value="${value}"${lang && html` lang="${lang}"`}${value === o.value && html` selected`}>${words}</option>`,
  )}</select>
<p class="hint" id="${o.id}-hint">${o.hint}</p>${error.html}</div>`;
}

function render({
  frame,
  base,
  status,
  version,
  values,
  notice,
  errors,
}: {
  frame: GeneralFrame;
  base: string;
  status: number;
  version: number;
  values: GeneralValues;
  notice: HtmlValue;
  errors?: FieldErrors;
}): WebAnswer {
  const { t } = frame;
  // The zones this runtime knows, and the one set even if it is an alias the list leaves out (UTC).
  const zones = Intl.supportedValuesOf('timeZone');
  const zoneOptions = (zones.includes(values.timeZone) || !values.timeZone ? zones : [values.timeZone, ...zones]).map(
    (zone) => [zone, zone.replace(/_/g, ' ')] as const,
  );
  const body = html`<h1>${t('admin.general')}</h1>
<p class="hint">${t('admin.general.intro')}</p>
${notice}
<section class="card form" id="general-form" aria-labelledby="general-form-title">
<h2 id="general-form-title">${t('admin.general.edit')}</h2>
<form method="post" action="${base + APP_ADMIN_GENERAL_PATH}" novalidate>${etagField(version)}
${inputField({ id: 'g-name', name: 'name', label: t('admin.general.name'), value: values.name, errors, hint: t('admin.general.nameHint'), attributes: html` required maxlength="200"` })}
${select(
  { id: 'g-locale', name: 'locale', label: t('admin.general.locale'), hint: t('admin.general.localeHint'), value: values.locale, errors },
  LOCALES.map((locale) => [locale, LANGUAGE_NAMES[locale], locale] as const),
)}
${select(
  {
    id: 'g-timeZone',
    name: 'timeZone',
    label: t('admin.general.timeZone'),
    hint: t('admin.general.timeZoneHint'),
    value: values.timeZone,
    errors,
  },
  zoneOptions,
)}
<div class="actions">${submitButton(t('admin.save'))}</div>
</form></section>`;
  return frame.page(status, t('admin.general'), body);
}
