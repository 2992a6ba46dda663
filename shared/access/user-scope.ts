import * as v from 'valibot';
import { entityId } from '../fields.js';
import { REGION_LIMITS, storesOfRegions, type RegionConfig } from '../regions.js';

/** What a user token may change: everything, or the listed stores, groups and regions. */
export const UserScope = v.union(
  [
    v.literal('all'),
    v.strictObject({
      stores: v.pipe(v.array(entityId), v.maxLength(1000, 'may list at most 1000 stores')),
      groups: v.pipe(v.array(entityId), v.maxLength(1000, 'may list at most 1000 groups')),
      /** Regions whose stores (and their child regions' stores) it sees, as the configuration lists them at each request. */
      regions: v.optional(
        v.pipe(v.array(entityId), v.maxLength(REGION_LIMITS.regions, `may list at most ${REGION_LIMITS.regions} regions`)),
      ),
    }),
  ],
  'must be "all" or { "stores": [ids], "groups": [ids], "regions"?: [ids] }',
);
export type UserScope = v.InferOutput<typeof UserScope>;

/** The stores, groups and regions of a scope that another does not name. */
export type OutsideScope = { stores: number[]; groups: number[]; regions: number[] };

/**
 * What of `inner` lies outside `outer`: nothing (undefined) when every store, group and region it names is in `outer`,
 * 'all' when it is every store and `outer` is not, else the stores, groups and regions `outer` does not list (a store
 * of one of `outer`'s regions is within it once the scope is resolved: `withRegionStores`).
 */
export function outsideScope(inner: UserScope, outer: UserScope): 'all' | OutsideScope | undefined {
  if (outer === 'all') return undefined;
  if (inner === 'all') return 'all';
  const stores = inner.stores.filter((id) => !outer.stores.includes(id));
  const groups = inner.groups.filter((id) => !outer.groups.includes(id));
  const regions = (inner.regions ?? []).filter((id) => !(outer.regions ?? []).includes(id));
  return stores.length || groups.length || regions.length ? { stores, groups, regions } : undefined;
}

/**
 * A scope as a request sees it: its stores and those of its regions (and their child regions) as the configuration
 * lists them now, so that a store placed in a region later is seen at once. Never stored: the user keeps their regions.
 */
export function withRegionStores(scope: UserScope, regions: readonly RegionConfig[]): UserScope {
  if (scope === 'all' || !scope.regions?.length) return scope;
  return { ...scope, stores: [...new Set([...scope.stores, ...storesOfRegions(regions, scope.regions)])] };
}

/** Whether two scopes name the same stores and groups, in whatever order. */
export const sameScope = (a: UserScope, b: UserScope): boolean => !outsideScope(a, b) && !outsideScope(b, a);
