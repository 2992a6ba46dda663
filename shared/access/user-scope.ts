import * as v from 'valibot';
import { entityId } from '../fields.js';

/** What a user token may change: everything, or the listed stores and groups. */
export const UserScope = v.union(
  [
    v.literal('all'),
    v.strictObject({
      stores: v.pipe(v.array(entityId), v.maxLength(1000, 'may list at most 1000 stores')),
      groups: v.pipe(v.array(entityId), v.maxLength(1000, 'may list at most 1000 groups')),
    }),
  ],
  'must be "all" or { "stores": [ids], "groups": [ids] }',
);
export type UserScope = v.InferOutput<typeof UserScope>;

/**
 * What of `inner` lies outside `outer`: nothing (undefined) when every store and group it names is in `outer`, 'all'
 * when it is every store and `outer` is not, else the stores and groups `outer` does not list.
 */
export function outsideScope(inner: UserScope, outer: UserScope): 'all' | { stores: number[]; groups: number[] } | undefined {
  if (outer === 'all') return undefined;
  if (inner === 'all') return 'all';
  const stores = inner.stores.filter((id) => !outer.stores.includes(id));
  const groups = inner.groups.filter((id) => !outer.groups.includes(id));
  return stores.length || groups.length ? { stores, groups } : undefined;
}

/** Whether two scopes name the same stores and groups, in whatever order. */
export const sameScope = (a: UserScope, b: UserScope): boolean => !outsideScope(a, b) && !outsideScope(b, a);
