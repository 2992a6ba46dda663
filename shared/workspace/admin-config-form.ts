import * as v from 'valibot';
import { PreconditionFailedError } from '../errors.js';
import { ConfigDocument } from '../tenants/config-schema.js';
import { addError, ETAG_FIELD, type AdminPagePorts, type AdminPageRequest, type FieldErrors } from './admin-form.js';

/*
 * A form's change to the whole configuration (the journeys and webhooks pages), checked by the tenant file's schema
 * as PUT /public/admin/config checks it: apart from the frame, so that a page that never changes the configuration
 * (keys, users, brand) does not build that schema.
 */

/** What became of a form's change. */
export type ChangeOutcome =
  /** Saved; `newEndpoints`: the webhook endpoints it listed for the first time (their signing secret is new). */
  { kind: 'saved'; newEndpoints: string[] } | { kind: 'stale' | 'invalid'; errors: FieldErrors; config: ConfigDocument; version: number };

/**
 * Applies a form's change to the configuration it was read at: `change` builds the whole new document from the
 * current one (or answers the field errors it found itself), the tenant file's schema checks it, and `fieldOf` names
 * the form field of each wrong path. Written only if still at the form's version, by the signed-in admin.
 */
export async function changeConfig(
  ports: Pick<AdminPagePorts, 'readConfig' | 'replaceConfig'>,
  {
    request,
    change,
    fieldOf,
    say,
  }: {
    request: AdminPageRequest;
    change: (config: ConfigDocument) => unknown;
    fieldOf: (path: string) => string;
    say: (message: string) => string;
  },
): Promise<ChangeOutcome> {
  const current = await ports.readConfig(request.tenantId);
  const stale = async (): Promise<ChangeOutcome> => ({ kind: 'stale', errors: new Map(), ...(await ports.readConfig(request.tenantId)) });
  if (request.form.get(ETAG_FIELD) !== String(current.version)) return { kind: 'stale', errors: new Map(), ...current };
  const candidate = change(current.config);
  if (candidate instanceof Map) return { kind: 'invalid', errors: candidate as FieldErrors, ...current };
  const parsed = v.safeParse(ConfigDocument, candidate);
  if (!parsed.success) {
    const errors: FieldErrors = new Map();
    for (const issue of parsed.issues) addError(errors, fieldOf(v.getDotPath(issue) ?? ''), say(issue.message));
    return { kind: 'invalid', errors, ...current };
  }
  try {
    const saved = await ports.replaceConfig(request.tenantId, {
      expected: current.version,
      config: parsed.output,
      actor: { user: request.user.name },
    });
    return { kind: 'saved', newEndpoints: saved.newEndpoints ?? [] };
  } catch (error) {
    // Another change claimed the version between the read and the write.
    if (error instanceof PreconditionFailedError) return stale();
    throw error;
  }
}
