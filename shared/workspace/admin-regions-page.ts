import { html, type SafeHtml } from '../html.js';
import type { AdminRegionsKey } from '../i18n/catalogue.js';
import { ADMIN_REGIONS } from '../i18n/messages.js';
import type { RegionConfig } from '../regions.js';
import { APP_ADMIN_REGIONS_PATH } from '../session/paths.js';
import { type ConfigDocument } from '../tenants/config-schema.js';
import { redirect, type WebAnswer } from '../web-answer.js';
import {
  adminFrame,
  etagField,
  fieldError,
  hiddenFields,
  inputField,
  problemsBox,
  submitButton,
  type AdminFrame,
  type AdminPagePorts,
  type AdminPageRequest,
  type FieldErrors,
} from './admin-form.js';
import type { changeConfig as ConfigChange, ChangeOutcome } from './admin-config-form.js';

/** This page's frame: the shared words and its own. */
export type RegionsFrame = AdminFrame<AdminRegionsKey>;

/** Offered as checkboxes up to this many stores; a tenant with more types the stores' codes. */
export const REGION_STORE_CHOICES = 200;

export interface RegionsPagePorts extends AdminPagePorts {
  /** The tenant's stores by name; undefined when there are more than `most`. */
  storeChoices(tenantId: number, most: number): Promise<Map<number, string> | undefined>;
}

/** What the region form holds, as typed: a region read, or the fields a refused form sent back. */
interface RegionValues {
  id?: string | undefined;
  name: string;
  parent: string;
  stores: string[];
}

const EMPTY: RegionValues = { name: '', parent: '', stores: [] };

const valuesOf = (region: RegionConfig): RegionValues => ({
  id: String(region.id),
  name: region.name,
  parent: region.parent === undefined ? '' : String(region.parent),
  stores: region.stores.map(String),
});

const valuesFrom = (form: URLSearchParams): RegionValues => ({
  id: form.get('id') ?? undefined,
  name: (form.get('name') ?? '').trim(),
  parent: form.get('parent') ?? '',
  // Checkboxes, or (a tenant with many stores) the codes typed, separated by commas or spaces.
  stores: form
    .getAll('stores')
    .flatMap((value) => value.split(/[\s,]+/))
    .filter(Boolean),
});

/**
 * The tenant admin's regions page (issue 49 §1, docs/regions.md): the regions, their parent and their stores, and a
 * form that adds one or edits one (name, parent, stores by name); each region may be deleted. Every change goes through
 * the configuration service and the tenant file's schema, as `PUT /public/admin/config` does: the same bounds.
 */
export function adminRegionsPage(ports: RegionsPagePorts) {
  async function showRegions(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_REGIONS_PATH, own: ADMIN_REGIONS });
    if (refused) return refused;
    const [{ config, version }, stores] = await Promise.all([
      ports.readConfig(request.tenantId),
      ports.storeChoices(request.tenantId, REGION_STORE_CHOICES),
    ]);
    const editing = config.regions.find((region) => String(region.id) === request.query.edit);
    const done = request.query.saved ?? request.query.deleted;
    const notice =
      done !== undefined &&
      html`<p class="saved" role="status">${frame.t(request.query.saved !== undefined ? 'admin.regions.saved' : 'admin.regions.deleted', { name: done })}</p>`;
    return render({ frame, base: request.base, status: 200, config, version, stores, values: editing ? valuesOf(editing) : EMPTY, notice });
  }
  return { showRegions };
}

/** The form's posts (save or delete), checked by the tenant file's schema (`changeConfig`, given by the post's wiring only). */
export function adminRegionsForm(ports: RegionsPagePorts, changeConfig: typeof ConfigChange) {
  async function saveRegion(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_REGIONS_PATH, own: ADMIN_REGIONS });
    if (refused) return refused;
    const sent = valuesFrom(request.form);
    const deleting = request.form.get('action') === 'delete';
    let index = -1;
    let name = sent.name;
    const outcome = await changeConfig(ports, {
      request,
      change: (config) => {
        index = config.regions.findIndex((region) => sent.id !== undefined && String(region.id) === sent.id);
        if (deleting) return withoutRegion({ frame, config, index, named: (found) => (name = found) });
        const region = regionOf(sent, config.regions[index], config.regions);
        if (index < 0) index = config.regions.length;
        // A store ticked here leaves the region it was in: a store is in one region at most.
        const chosen = new Set(region.stores);
        const regions = config.regions.map((r) => ({ ...r, stores: r.stores.filter((store) => !chosen.has(store)) }));
        regions[index] = region as RegionConfig;
        return { ...config, regions };
      },
      fieldOf: (path) => {
        const [list, at, field] = path.split('.');
        return list === 'regions' && Number(at) === index && field && field !== 'id' ? field : '';
      },
      say: frame.say,
    });
    if (outcome.kind === 'saved')
      return redirect(`${request.base}${APP_ADMIN_REGIONS_PATH}?${deleting ? 'deleted' : 'saved'}=${encodeURIComponent(name)}`);
    const stores = await ports.storeChoices(request.tenantId, REGION_STORE_CHOICES);
    const status = outcome.kind === 'stale' ? 409 : 400;
    return render({
      frame,
      base: request.base,
      status,
      config: outcome.config,
      version: outcome.version,
      stores,
      values: deleting ? EMPTY : sent,
      notice: undefined,
      outcome,
    });
  }
  return { saveRegion };
}

/** The regions without the one at `index`; one that still has regions inside it stays (its children would lose their parent). */
function withoutRegion({
  frame,
  config,
  index,
  named,
}: {
  frame: RegionsFrame;
  config: ConfigDocument;
  index: number;
  named: (name: string) => void;
}) {
  const region = config.regions[index];
  const refused = (message: string): FieldErrors => new Map([['', [message]]]);
  if (!region) return refused(frame.t('admin.regions.gone'));
  named(region.name);
  if (config.regions.some((r) => r.parent === region.id)) return refused(frame.t('admin.regions.hasChildren', { name: region.name }));
  return { ...config, regions: config.regions.filter((r) => r.id !== region.id) };
}

/** The region a form describes: a new one takes the next id. The schema checks the result, so values are as sent. */
function regionOf(sent: RegionValues, existing: RegionConfig | undefined, regions: readonly RegionConfig[]) {
  const number = (value: string) => (/^\d+$/.test(value) ? Number(value) : value);
  return {
    id: existing?.id ?? Math.max(0, ...regions.map((region) => region.id)) + 1,
    name: sent.name,
    stores: [...new Set(sent.stores.map(number))],
    ...(sent.parent ? { parent: number(sent.parent) } : {}),
  };
}

/** Each form field's label and input id, for the problems box's links. */
const labelsOf = ({ t }: RegionsFrame): Record<string, { label: string; id: string }> => ({
  name: { label: t('admin.name'), id: 'r-name' },
  parent: { label: t('admin.regions.parent'), id: 'r-parent' },
  stores: { label: t('admin.regions.stores'), id: 'r-stores' },
});

function render({
  frame,
  base,
  status,
  config,
  version,
  stores,
  values,
  notice,
  outcome,
}: {
  frame: RegionsFrame;
  base: string;
  status: number;
  config: ConfigDocument;
  version: number;
  stores: Map<number, string> | undefined;
  values: RegionValues;
  notice?: SafeHtml | false;
  outcome?: Exclude<ChangeOutcome, { kind: 'saved' }>;
}): WebAnswer {
  const { t } = frame;
  const names = new Map(config.regions.map((region) => [region.id, region.name]));
  // Parents first, each followed by the regions inside it.
  const ordered = config.regions
    .filter((region) => region.parent === undefined || !names.has(region.parent))
    .flatMap((top) => [top, ...config.regions.filter((region) => region.parent === top.id)]);
  const list = ordered.length
    ? html`<ul class="items" aria-labelledby="regions-title">${ordered.map((region) => regionItem({ frame, base, version, region, names, stores }))}</ul>`
    : html`<p>${t('admin.regions.noneYet')}</p>`;
  const body = html`<h1>${t('admin.regions')}</h1>
<p class="hint">${t('admin.regions.intro')}</p>
${notice}
${outcome ? problemsBox({ t: frame.t, outcome, labels: labelsOf(frame), formId: 'region-form' }) : ''}
<p><a href="#region-form">${t('admin.regions.newRegion')}</a></p>
<h2 id="regions-title">${t('admin.regions.list')}</h2>
${list}
${regionForm({ frame, base, regions: config.regions, version, stores, values, errors: outcome?.errors })}`;
  return frame.page(status, t('admin.regions'), body);
}

function regionItem({
  frame,
  base,
  version,
  region,
  names,
  stores,
}: {
  frame: RegionsFrame;
  base: string;
  version: number;
  region: RegionConfig;
  names: Map<number, string>;
  stores: Map<number, string> | undefined;
}): SafeHtml {
  const { t } = frame;
  const storeNames = stores
    ? region.stores.map((id) => stores.get(id) ?? `#${id}`).join(', ')
    : t('admin.regions.storeCount', { count: region.stores.length });
  return html`<li class="card" id="region-${region.id}">
<h3>${region.name}</h3>
${region.parent !== undefined && html`<p>${t('admin.regions.within', { name: names.get(region.parent) ?? `#${region.parent}` })}</p>`}
<p><span class="hint">${t('admin.regions.stores')}:</span> ${region.stores.length ? storeNames : t('admin.regions.noStores')}</p>
<div class="actions"><a href="${`${base}${APP_ADMIN_REGIONS_PATH}?edit=${region.id}#region-form`}">${t('admin.regions.edit')}<span class="visually-hidden"> ${region.name}</span></a>
<form method="post" action="${base + APP_ADMIN_REGIONS_PATH}">${etagField(version)}${hiddenFields({ action: 'delete', id: String(region.id) })}
${submitButton(t('admin.regions.delete'), region.name, 'secondary')}</form></div>
</li>`;
}

function regionForm({
  frame,
  base,
  regions,
  version,
  stores,
  values,
  errors,
}: {
  frame: RegionsFrame;
  base: string;
  regions: readonly RegionConfig[];
  version: number;
  stores: Map<number, string> | undefined;
  values: RegionValues;
  errors: FieldErrors | undefined;
}): SafeHtml {
  const { t } = frame;
  const editing = values.id !== undefined;
  // A parent is a region that is not itself inside another (two levels), and not the region itself.
  const parents = regions.filter((region) => region.parent === undefined && String(region.id) !== values.id);
  const parentError = fieldError({ errors, field: 'parent', id: 'r-parent', hintId: 'r-parent-hint' });
  const regionOfStore = new Map(regions.flatMap((region) => region.stores.map((store) => [store, region] as const)));
  const storesError = fieldError({ errors, field: 'stores', id: 'r-stores', hintId: 'r-stores-hint' });
  const storeField = stores
    ? html`<fieldset id="r-stores" tabindex="-1"${storesError.attributes}><legend>${t('admin.regions.stores')}</legend>
<p class="hint" id="r-stores-hint">${t('admin.regions.storesHint')}</p><div class="checks">${[...stores]
        .sort(([, a], [, b]) => a.localeCompare(b))
        .map(([id, name]) => {
          const other = regionOfStore.get(id);
          const elsewhere = other && String(other.id) !== values.id ? ` (${t('admin.regions.inRegion', { name: other.name })})` : '';
          return html`<label class="check"><input type="checkbox" name="stores" value="${id}"${values.stores.includes(String(id)) && html` checked`}> ${name}${elsewhere}</label>`;
        })}</div>${storesError.html}</fieldset>`
    : inputField({
        id: 'r-stores',
        name: 'stores',
        label: t('admin.regions.storeCodes'),
        value: values.stores.join(', '),
        errors,
        hint: t('admin.regions.storesHint'),
        attributes: html` inputmode="numeric"`,
      });
  const title = editing ? t('admin.regions.editRegion', { name: values.name }) : t('admin.regions.newRegion');
  return html`<section class="card form" id="region-form" aria-labelledby="region-form-title">
<h2 id="region-form-title">${title}</h2>
<form method="post" action="${base + APP_ADMIN_REGIONS_PATH}" novalidate>
${etagField(version)}${editing && html`<input type="hidden" name="id" value="${values.id!}">`}
${inputField({ id: 'r-name', name: 'name', label: t('admin.name'), value: values.name, errors, attributes: html` required maxlength="200"` })}
<div class="field"><label for="r-parent">${t('admin.regions.parent')}</label>
<select id="r-parent" name="parent"${parentError.attributes}${parentError.invalid}><option value="">${t('admin.regions.noParent')}</option>${parents.map(
    (region) => html`<option value="${region.id}"${values.parent === String(region.id) && html` selected`}>${region.name}</option>`,
  )}</select>
<p class="hint" id="r-parent-hint">${t('admin.regions.parentHint')}</p>${parentError.html}</div>
${storeField}
<div class="actions">${submitButton(t('admin.save'))}${
    editing && html` <a href="${base + APP_ADMIN_REGIONS_PATH}#region-form">${t('admin.regions.cancelEdit')}</a>`
  }</div>
</form></section>`;
}
