import { APP_ADMIN_BRAND_PATH } from '../session/paths.js';
import { escapeHtml } from '../surveys/compose.js';
import { DEFAULT_BRAND_COLOUR, logoPath } from '../brand/brand.js';
import type { BrandSettings } from '../tenants/config-schema.js';
import type { configService } from '../tenants/config-service.js';
import type { WebAnswer } from './answer.js';
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
import type { AdminText } from './admin-text.js';
import { BRAND_TEXT, type BrandText } from './admin-brand-text.js';

/** This page's frame: the shared words and its own. */
export type BrandFrame = AdminFrame<AdminText & BrandText>;

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
    const { frame, refused } = await adminFrame(ports, request, APP_ADMIN_BRAND_PATH, BRAND_TEXT);
    if (refused) return refused;
    const { brand, version } = await ports.readBrand(request.tenantId);
    const notice = request.query.done === 'saved' ? `<p class="saved" role="status">${escapeHtml(frame.text.brandSaved)}</p>` : '';
    return render(frame, request, 200, brand, version, valuesOf(brand), notice);
  };
}

export const valuesOf = (brand: BrandSettings | undefined): BrandValues => ({
  name: brand?.name ?? '',
  colour: brand?.colour ?? '',
  senderName: brand?.senderName ?? '',
});

export const labelsOf = ({ text }: BrandFrame) => ({
  name: { label: text.brandName, id: 'b-name' },
  colour: { label: text.colour, id: 'b-colour' },
  senderName: { label: text.senderName, id: 'b-senderName' },
  logo: { label: text.logo, id: 'b-logo' },
});

/** The brand page, with the values and errors of a form sent back. */
export function render(
  frame: BrandFrame,
  request: AdminPageRequest,
  status: number,
  brand: BrandSettings | undefined,
  version: number,
  values: BrandValues,
  notice: string,
  errors?: FieldErrors,
): WebAnswer {
  const { text } = frame;
  const colour = brand?.colour ?? DEFAULT_BRAND_COLOUR;
  const logo = fieldError(errors, 'logo', 'b-logo', 'b-logo-hint');
  // The preview shows the brand as saved: the logo on the page's background, and the colour as the survey's button.
  const preview = `<section class="card brand-preview" aria-labelledby="preview-title">
<h2 id="preview-title">${escapeHtml(text.preview)}</h2>
${
  brand?.logo
    ? `<p><img id="current-logo" src="${escapeHtml(request.base + logoPath(brand.logo.file))}" alt="${escapeHtml(`${text.currentLogo}: ${brand.name}`)}"></p>`
    : `<p>${escapeHtml(text.noLogo)}</p>`
}
<p class="swatch"><svg width="48" height="24" aria-hidden="true"><rect width="48" height="24" rx="4" fill="${escapeHtml(colour)}"/></svg> <span>${escapeHtml(text.colour)}: <code>${escapeHtml(colour)}</code></span></p>
</section>`;
  const body = `<h1>${escapeHtml(text.brand)}</h1>
<p class="hint">${escapeHtml(text.brandIntro)}</p>
${notice}
${preview}
<section class="card form" id="brand-form" aria-labelledby="brand-form-title">
<h2 id="brand-form-title">${escapeHtml(text.editBrand)}</h2>
<form method="post" action="${escapeHtml(request.base + APP_ADMIN_BRAND_PATH)}" enctype="multipart/form-data" novalidate>${etagField(version)}
${inputField({ id: 'b-name', name: 'name', label: text.brandName, value: values.name, errors, hint: text.brandNameHint, attributes: ' required maxlength="100"' })}
${inputField({ id: 'b-colour', name: 'colour', label: text.colour, value: values.colour, errors, hint: text.colourHint, attributes: ' maxlength="7" autocomplete="off" spellcheck="false"' })}
${inputField({ id: 'b-senderName', name: 'senderName', label: text.senderName, value: values.senderName, errors, hint: text.senderNameHint, attributes: ' maxlength="100"' })}
<div class="field"><label for="b-logo">${escapeHtml(text.logo)}</label>
<input id="b-logo" name="logo" type="file" accept="image/png,image/jpeg,image/webp"${logo.attributes}${logo.invalid}>
<p class="hint" id="b-logo-hint">${escapeHtml(text.logoHint)}${errors?.size ? ` ${escapeHtml(text.logoAgain)}` : ''}</p>${logo.html}</div>
${brand?.logo ? `<label class="check"><input type="checkbox" name="removeLogo" value="yes"> ${escapeHtml(text.removeLogo)}</label>` : ''}
<div class="actions">${submitButton(text.save)}</div>
</form></section>`;
  return frame.page(status, text.brand, body);
}
