import { PreconditionRequiredError } from '../errors.js';
import { ConfigDocument } from '../tenants/config-schema.js';

/** The configuration the admin API answers: the tenant file's shape (ConfigDocument), without id, users and keys. */
export const AdminConfigBody = ConfigDocument;

/** A configuration version as an HTTP entity tag. */
export const etagOf = (version: number): string => `"${version}"`;

/**
 * The configuration version an If-Match header names; a change without one is refused (428). `*` matches whatever
 * version is current (RFC 9110), for a client that replaces on purpose; any other value that is no version of ours
 * can never match: -1.
 */
export function expectedVersion(ifMatch: string | undefined): number | 'current' {
  if (ifMatch === undefined || ifMatch.trim() === '')
    throw new PreconditionRequiredError('Send the If-Match header with the ETag of the configuration you read (GET /public/admin/config).');
  if (ifMatch.trim() === '*') return 'current';
  const match = /^\s*(?:W\/)?"(\d{1,15})"\s*$/.exec(ifMatch);
  return match ? Number(match[1]) : -1;
}
