import { PreconditionRequiredError } from '../errors.js';
import { ConfigDocument } from '../tenants/config-schema.js';

/** The configuration the admin API answers: the tenant file's shape (ConfigDocument), without id, users and keys. */
export const AdminConfigBody = ConfigDocument;

/** A configuration version as an HTTP entity tag. */
export const etagOf = (version: number): string => `"${version}"`;

/**
 * The configuration version an If-Match header names; a change without one is refused (428). A value that is no
 * version of ours (`*`, a list) can never match: -1.
 */
export function expectedVersion(ifMatch: string | undefined): number {
  if (ifMatch === undefined || ifMatch.trim() === '')
    throw new PreconditionRequiredError('Send the If-Match header with the ETag of the configuration you read (GET /public/admin/config).');
  const match = /^\s*(?:W\/)?"(\d{1,15})"\s*$/.exec(ifMatch);
  return match ? Number(match[1]) : -1;
}
