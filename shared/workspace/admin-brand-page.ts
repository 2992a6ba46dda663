import * as v from 'valibot';
import { DomainError, PreconditionFailedError } from '../errors.js';
import { readMultipart, type SentFile } from '../http/multipart.js';
import { APP_ADMIN_BRAND_PATH } from '../session/paths.js';
import { escapeHtml } from '../surveys/compose.js';
import type { AuditActor } from '../tenants/audit.js';
import { DEFAULT_BRAND_COLOUR, logoPath } from '../tenants/brand.js';
import { BrandConfig, type BrandSettings } from '../tenants/config-schema.js';
import { MAX_LOGO_BYTES } from '../tenants/logo.js';
import { redirect, type WebAnswer } from './answer.js';
import {
  addError,
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

/**
 * What the brand page needs: the brand with the configuration version it was read at, a logo's bytes checked and
 * stored (its content-addressed object; LogoError when refused), and the brand written if still at that version
 * (PreconditionFailedError otherwise), by the signed-in admin.
 */
export interface BrandReadPorts extends Pick<AdminPagePorts, 'settings'> {
  readBrand(tenantId: number): Promise<{ brand: BrandSettings | undefined; version: number }>;
}
export interface BrandPagePorts extends BrandReadPorts {
  uploadLogo(tenantId: number, bytes: Uint8Array, actor: AuditActor): Promise<NonNullable<BrandSettings['logo']>>;
  replaceBrand(tenantId: number, expected: number, brand: BrandSettings, actor: AuditActor): Promise<unknown>;
}

/** A brand page's request: the admin page's, and the body as sent (a multipart form, for its file). */
export type BrandPageRequest = AdminPageRequest & { body: Buffer; contentType: string | undefined };

/** The largest body the page takes: a logo at its limit and the form's few fields, with room for the multipart framing. */
export const MAX_BRAND_FORM_BYTES = MAX_LOGO_BYTES + 32 * 1024;

/** What the form holds, as typed. */
interface BrandValues {
  name: string;
  colour: string;
  senderName: string;
}

/** The brand's fields the form changes: the tenant file's schema without the logo (which the form sends as a file). */
const BrandFields = v.omit(BrandConfig, ['logo']);

/**
 * The tenant admin's brand (issue 34 §6): display name, main colour (refused with the contrast rule's reason when it
 * fails WCAG AA), the e-mails' sender name, and a logo uploaded with the form (multipart, no JavaScript) and shown as a
 * preview beside the colour. The form carries the configuration's version: a stale form saves nothing.
 */
export function brandPage(ports: BrandReadPorts) {
  return async function showBrand(request: AdminPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame(ports, request, APP_ADMIN_BRAND_PATH);
    if (refused) return refused;
    const { brand, version } = await ports.readBrand(request.tenantId);
    const notice = request.query.done === 'saved' ? `<p class="saved" role="status">${escapeHtml(frame.text.brandSaved)}</p>` : '';
    return render(frame, request, 200, brand, version, valuesOf(brand), notice);
  };
}

/** The brand form's post: apart from the page, as only it stores logos (the logo bucket's write grant). */
export function brandForm(ports: BrandPagePorts) {
  return async function saveBrand(request: BrandPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame(ports, request, APP_ADMIN_BRAND_PATH);
    if (refused) return refused;
    const { text } = frame;
    const actor = { user: request.user.name };
    const { fields, files } = await readMultipart(request.body, request.contentType, { maxFileBytes: MAX_LOGO_BYTES });
    const sent: BrandValues = {
      name: (fields.get('name') ?? '').trim(),
      colour: (fields.get('colour') ?? '').trim(),
      senderName: (fields.get('senderName') ?? '').trim(),
    };
    const current = await ports.readBrand(request.tenantId);
    const errors: FieldErrors = new Map();
    const again = (status: number, notice: string) => render(frame, request, status, current.brand, current.version, sent, notice, errors);
    if (fields.get('etag') !== String(current.version)) return again(409, problemsBox(text, { kind: 'stale', errors }, {}, 'brand-form'));

    const parsed = v.safeParse(BrandFields, {
      name: sent.name,
      ...(sent.colour ? { colour: sent.colour } : {}),
      ...(sent.senderName ? { senderName: sent.senderName } : {}),
    });
    if (!sent.name) addError(errors, 'name', text.problems.required);
    else if (!parsed.success) for (const issue of parsed.issues) addError(errors, v.getDotPath(issue) ?? '', frame.say(issue.message));
    const file: SentFile | undefined = files.get('logo');
    if (file?.tooLarge) addError(errors, 'logo', text.problems.fileTooLarge(String(MAX_LOGO_BYTES / 1024)));
    if (errors.size || !parsed.success) return again(400, problemsBox(text, { kind: 'invalid', errors }, labelsOf(frame), 'brand-form'));

    let logo = fields.get('removeLogo') === 'yes' ? undefined : current.brand?.logo;
    try {
      // Stored only once every other field is right; an object no brand names costs nothing and is never served wrong.
      if (file?.bytes.length) logo = await ports.uploadLogo(request.tenantId, file.bytes, actor);
      await ports.replaceBrand(request.tenantId, current.version, { ...parsed.output, name: sent.name, ...(logo ? { logo } : {}) }, actor);
    } catch (error) {
      if (error instanceof PreconditionFailedError) return again(409, problemsBox(text, { kind: 'stale', errors }, {}, 'brand-form'));
      if (!(error instanceof DomainError) || error.kind !== 'validation') throw error;
      for (const problem of error.errors) addError(errors, 'logo', frame.say(problem.message));
      return again(400, problemsBox(text, { kind: 'invalid', errors }, labelsOf(frame), 'brand-form'));
    }
    return redirect(`${request.base}${APP_ADMIN_BRAND_PATH}?done=saved`);
  };
}

const valuesOf = (brand: BrandSettings | undefined): BrandValues => ({
  name: brand?.name ?? '',
  colour: brand?.colour ?? '',
  senderName: brand?.senderName ?? '',
});

const labelsOf = ({ text }: AdminFrame) => ({
  name: { label: text.brandName, id: 'b-name' },
  colour: { label: text.colour, id: 'b-colour' },
  senderName: { label: text.senderName, id: 'b-senderName' },
  logo: { label: text.logo, id: 'b-logo' },
});

function render(
  frame: AdminFrame,
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
