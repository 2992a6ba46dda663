import { PreconditionFailedError, PreconditionRequiredError } from '../errors.js';

/** A version (of a configuration, of a case) as an HTTP entity tag: strong, as every write compares it. */
export const etagOf = (version: number): string => `"${version}"`;

/**
 * The version an If-Match header names, for a change made from that read (`readFrom` says where to read it); a change
 * without one is refused (428). `*` matches whatever version is current (RFC 9110), for a client that writes on
 * purpose. If-Match compares strongly (RFC 9110 13.1.1): a weak tag matches nothing (412); any other value that is no
 * version of ours can never match: -1.
 */
export function expectedVersion(ifMatch: string | undefined, readFrom: string): number | 'current' {
  if (ifMatch === undefined || ifMatch.trim() === '')
    throw new PreconditionRequiredError(`Send the If-Match header with the ETag of ${readFrom}.`);
  if (ifMatch.trim() === '*') return 'current';
  if (/^\s*W\//.test(ifMatch))
    throw new PreconditionFailedError(`A weak ETag (W/"…") never matches for a change: send the ETag of ${readFrom} as it was given.`);
  const match = /^\s*"(\d{1,15})"\s*$/.exec(ifMatch);
  return match ? Number(match[1]) : -1;
}
