import { colour as checkedColour, html, type HtmlValue } from '../html.js';
import type { AdminBrandKey } from '../i18n/catalogue.js';
import { ADMIN_BRAND } from '../i18n/messages.js';
import { APP_ADMIN_BRAND_PATH } from '../session/paths.js';
import { DEFAULT_BRAND_COLOUR, logoPath } from '../brand/brand.js';
import type { BrandSettings } from '../brand/ports.js';
import type { configService } from '../tenants/config-service.js';
import type { WebAnswer } from '../web-answer.js';
import {
  adminFrame,
  etagField,
  fieldError,
  inputField,
  submitButton,
  type AdminFrame,
  type AdminPagePorts,
  type AdminPageRequest,
  type FieldErrors,
} from './admin-form.js';

/** This page's frame: the shared words and its own. */
export type BrandFrame = AdminFrame<AdminBrandKey>;

/** What the brand page needs: the brand with the configuration version it was read at (its form's post: admin-brand-form.ts). */
export interface BrandReadPorts extends Pick<AdminPagePorts, 'settings'> {
  readBrand(tenantId: number): Promise<{ brand: BrandSettings | undefined; version: number }>;
}

/** The configuration service of `PUT /public/admin/config`, as the brand page and its form use it. */
export type BrandConfigService = Pick<ReturnType<typeof configService>, 'readConfig' | 'replaceConfig'>;

/** The brand as the admin API's configuration has it (its display name resolved), and the version it was read at. */
export const readBrandOf =
  (config: Pick<BrandConfigService, 'readConfig'>): BrandReadPorts['readBrand'] =>
  async (tenantId) => {
    const { config: document, version } = await config.readConfig(tenantId);
    return { brand: { ...document.brand, name: document.brand.name ?? document.name }, version };
  };

/** What the form holds, as typed. */
export interface BrandValues {
  name: string;
  colour: string;
  senderName: string;
}

/**
 * The tenant admin's brand (issue 34 §6): display name, main colour (refused with the contrast rule's reason when it
 * fails WCAG AA), the e-mails' sender name, and a logo uploaded with the form (multipart, no JavaScript) and shown as a
 * preview beside the colour. The form carries the configuration's version: a stale form saves nothing.
 */
export function brandPage(ports: BrandReadPorts) {
  return async function showBrand(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_BRAND_PATH, own: ADMIN_BRAND });
    if (refused) return refused;
    const { brand, version } = await ports.readBrand(request.tenantId);
    const notice = request.query.done === 'saved' ? html`<p class="saved" role="status">${frame.t('admin.brand.brandSaved')}</p>` : '';
    return render({ frame, request, status: 200, brand, version, values: valuesOf(brand), notice });
  };
}

export const valuesOf = (brand: BrandSettings | undefined): BrandValues => ({
  name: brand?.name ?? '',
  colour: brand?.colour ?? '',
  senderName: brand?.senderName ?? '',
});

export const labelsOf = ({ t }: BrandFrame) => ({
  name: { label: t('admin.brand.brandName'), id: 'b-name' },
  colour: { label: t('admin.colour'), id: 'b-colour' },
  senderName: { label: t('admin.brand.senderName'), id: 'b-senderName' },
  logo: { label: t('admin.brand.logo'), id: 'b-logo' },
});

/** The brand page, with the values and errors of a form sent back. */
export function render({
  frame,
  request,
  status,
  brand,
  version,
  values,
  notice,
  errors,
}: {
  frame: BrandFrame;
  request: AdminPageRequest;
  status: number;
  brand: BrandSettings | undefined;
  version: number;
  values: BrandValues;
  notice: HtmlValue;
  errors?: FieldErrors;
}): WebAnswer {
  const { t } = frame;
  const colour = checkedColour(brand?.colour) ?? checkedColour(DEFAULT_BRAND_COLOUR)!;
  const logo = fieldError({ errors, field: 'logo', id: 'b-logo', hintId: 'b-logo-hint' });
  // The preview shows the brand as saved: the logo on the page's background, and the colour as the survey's button.
  const preview = html`<section class="card brand-preview" aria-labelledby="preview-title">
<h2 id="preview-title">${t('admin.brand.preview')}</h2>
${
  brand?.logo
    ? html`<p><img id="current-logo" src="${request.base + logoPath(brand.logo.file)}" alt="${`${t('admin.brand.currentLogo')}: ${brand.name}`}"></p>`
    : html`<p>${t('admin.brand.noLogo')}</p>`
}
<p class="swatch"><svg width="48" height="24" aria-hidden="true"><rect width="48" height="24" rx="4" fill="${colour}"/></svg> <span>${t('admin.colour')}: <code>${colour}</code></span></p>
</section>`;
  const body = html`<h1>${t('admin.brand')}</h1>
<p class="hint">${t('admin.brand.brandIntro')}</p>
${notice}
${preview}
<section class="card form" id="brand-form" aria-labelledby="brand-form-title">
<h2 id="brand-form-title">${t('admin.brand.editBrand')}</h2>
<form method="post" action="${request.base + APP_ADMIN_BRAND_PATH}" enctype="multipart/form-data" novalidate>${etagField(version)}
${inputField({ id: 'b-name', name: 'name', label: t('admin.brand.brandName'), value: values.name, errors, hint: t('admin.brand.brandNameHint'), attributes: html` required maxlength="100"` })}
${inputField({ id: 'b-colour', name: 'colour', label: t('admin.colour'), value: values.colour, errors, hint: t('admin.brand.colourHint'), attributes: html` maxlength="7" autocomplete="off" spellcheck="false"` })}
${inputField({ id: 'b-senderName', name: 'senderName', label: t('admin.brand.senderName'), value: values.senderName, errors, hint: t('admin.brand.senderNameHint'), attributes: html` maxlength="100"` })}
<div class="field"><label for="b-logo">${t('admin.brand.logo')}</label>
<input id="b-logo" name="logo" type="file" accept="image/png,image/jpeg,image/webp"${logo.attributes}${logo.invalid}>
<p class="hint" id="b-logo-hint">${t('admin.brand.logoHint')}${errors?.size ? ` ${t('admin.brand.logoAgain')}` : ''}</p>${logo.html}</div>
${brand?.logo ? html`<label class="check"><input type="checkbox" name="removeLogo" value="yes"> ${t('admin.brand.removeLogo')}</label>` : ''}
<div class="actions">${submitButton(t('admin.save'))}</div>
</form></section>`;
  return frame.page(status, t('admin.brand'), body);
}
