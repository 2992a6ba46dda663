import * as v from 'valibot';
import { ADMIN_BRAND } from '../i18n/messages.js';
import { DomainError, PreconditionFailedError } from '../errors.js';
import type { HtmlValue } from '../html.js';
import { APP_ADMIN_BRAND_PATH } from '../session/paths.js';
import type { AuditActor } from '../audit/log.js';
import { BrandConfig } from '../brand/brand-schema.js';
import type { BrandSettings } from '../brand/ports.js';
import { MAX_LOGO_BYTES, type SentLogo } from '../brand/logo.js';
import { redirect, type WebAnswer } from '../web-answer.js';
import { addError, adminFrame, problemsBox, type AdminPageRequest, type FieldErrors } from './admin-form.js';
import { labelsOf, render, type BrandConfigService, type BrandReadPorts, type BrandValues } from './admin-brand-page.js';

/**
 * The brand form's post (apart from the page, which never reads a multipart body nor checks the form's fields): a
 * logo's bytes checked and stored (its content-addressed object; LogoError when refused), and the brand written if
 * still at the version the form was read at (PreconditionFailedError otherwise), by the signed-in admin.
 */
export interface BrandPagePorts extends BrandReadPorts {
  uploadLogo(tenantId: number, upload: SentLogo): Promise<NonNullable<BrandSettings['logo']>>;
  /** The brand written by `actor` if the configuration is still at version `expected`. */
  replaceBrand(tenantId: number, change: { expected: number; brand: BrandSettings; actor: AuditActor }): Promise<unknown>;
}

/** The brand written into the configuration as PUT /public/admin/config does, at the version the form was read at. */
export const replaceBrandOf =
  (config: BrandConfigService): BrandPagePorts['replaceBrand'] =>
  async (tenantId, { expected, brand, actor }) => {
    const { config: document } = await config.readConfig(tenantId);
    return config.replaceConfig(tenantId, { expected, config: { ...document, brand }, actor });
  };

/** A file sent with the form: its bytes (at most the limit), and whether it was longer than that. */
export interface SentFile {
  bytes: Uint8Array;
  tooLarge: boolean;
}

/** A brand page's request: the admin page's, and the multipart form as read (shared/http/multipart.ts), for its file. */
export type BrandPageRequest = AdminPageRequest & { sent: { fields: URLSearchParams; files: Map<string, SentFile> } };

/** The largest body the page takes: a logo at its limit and the form's few fields, with room for the multipart framing. */
export const MAX_BRAND_FORM_BYTES = MAX_LOGO_BYTES + 32 * 1024;

/** The brand's fields the form changes: the tenant file's schema without the logo (which the form sends as a file). */
const BrandFields = v.omit(BrandConfig, ['logo']);

/** The brand form's post: apart from the page, as only it stores logos (the logo bucket's write grant). */
export function brandForm(ports: BrandPagePorts) {
  return async function saveBrand(request: BrandPageRequest): Promise<WebAnswer> {
    const { frame, refused } = await adminFrame({ ports, request, path: APP_ADMIN_BRAND_PATH, own: ADMIN_BRAND });
    if (refused) return refused;
    const { t } = frame;
    const actor = { user: request.user.name };
    const { fields, files } = request.sent;
    const sent: BrandValues = {
      name: (fields.get('name') ?? '').trim(),
      colour: (fields.get('colour') ?? '').trim(),
      senderName: (fields.get('senderName') ?? '').trim(),
    };
    const current = await ports.readBrand(request.tenantId);
    const errors: FieldErrors = new Map();
    const again = (status: number, notice: HtmlValue) =>
      render({ frame, request, status, brand: current.brand, version: current.version, values: sent, notice, errors });
    if (fields.get('etag') !== String(current.version))
      return again(409, problemsBox({ t: frame.t, outcome: { kind: 'stale', errors }, labels: {}, formId: 'brand-form' }));

    const parsed = v.safeParse(BrandFields, {
      name: sent.name,
      ...(sent.colour ? { colour: sent.colour } : {}),
      ...(sent.senderName ? { senderName: sent.senderName } : {}),
    });
    if (!sent.name) addError(errors, 'name', t('admin.problems.required'));
    else if (!parsed.success) for (const issue of parsed.issues) addError(errors, v.getDotPath(issue) ?? '', frame.say(issue.message));
    const file: SentFile | undefined = files.get('logo');
    if (file?.tooLarge) addError(errors, 'logo', t('admin.problems.fileTooLarge', { max: String(MAX_LOGO_BYTES / 1024) }));
    if (errors.size || !parsed.success)
      return again(400, problemsBox({ t: frame.t, outcome: { kind: 'invalid', errors }, labels: labelsOf(frame), formId: 'brand-form' }));

    let logo = fields.get('removeLogo') === 'yes' ? undefined : current.brand?.logo;
    try {
      // Stored only once every other field is right; an object no brand names costs nothing and is never served wrong.
      if (file?.bytes.length) logo = await ports.uploadLogo(request.tenantId, { bytes: file.bytes, actor });
      await ports.replaceBrand(request.tenantId, {
        expected: current.version,
        brand: { ...parsed.output, name: sent.name, ...(logo ? { logo } : {}) },
        actor,
      });
    } catch (error) {
      if (error instanceof PreconditionFailedError)
        return again(409, problemsBox({ t: frame.t, outcome: { kind: 'stale', errors }, labels: {}, formId: 'brand-form' }));
      if (!(error instanceof DomainError) || error.kind !== 'validation') throw error;
      for (const problem of error.errors) addError(errors, 'logo', frame.say(problem.message));
      return again(400, problemsBox({ t: frame.t, outcome: { kind: 'invalid', errors }, labels: labelsOf(frame), formId: 'brand-form' }));
    }
    return redirect(`${request.base}${APP_ADMIN_BRAND_PATH}?done=saved`);
  };
}
