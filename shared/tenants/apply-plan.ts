import { createHash } from 'node:crypto';
import type { ConfigDocument } from './config-schema.js';
import { configChanges, configLeaves } from './configuration.js';

/**
 * What the last `apply` wrote of a tenant's configuration: a short hash of each leaf's value by its path (the paths
 * `configChanges` names), never the values themselves. Enough to tell which fields were changed since, on the admin
 * pages or through the API, whatever their size.
 */
export type AppliedFingerprint = Record<string, string>;

const hashOf = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 12);

export const configFingerprint = (config: ConfigDocument): AppliedFingerprint =>
  Object.fromEntries(
    configLeaves(config)
      .filter(([, value]) => value !== undefined)
      .map(([path, value]) => [path, hashOf(value)]),
  );

export const SINCE_APPLY = 'changed on the admin pages/API since the last apply';

/**
 * The lines of an apply's plan for the configuration: each field the file changes, old -> new, and whether its current
 * value differs from what the last apply wrote (`applied`; absent before the first apply that recorded it).
 */
export function configPlan(
  current: ConfigDocument | undefined,
  planned: ConfigDocument,
  applied: AppliedFingerprint | undefined,
): string[] {
  const now = current ? configFingerprint(current) : {};
  const drifted = applied ? [...new Set([...Object.keys(applied), ...Object.keys(now)])].filter((path) => applied[path] !== now[path]) : [];
  // A field is one leaf; a whole journey added or removed is one change over all its leaves.
  const touches = (a: string, b: string) => a === b || b.startsWith(`${a}.`) || b.startsWith(`${a}[`);
  return configChanges(current ?? {}, planned).map(
    ({ path, old, new: value }) =>
      `  ${path}: ${shown(old)} -> ${shown(value)}` +
      (drifted.some((other) => touches(path, other) || touches(other, path)) ? ` (${SINCE_APPLY})` : ''),
  );
}

const shown = (value: unknown) => (value === null || value === undefined ? '(none)' : JSON.stringify(value));
