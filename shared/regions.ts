import * as v from 'valibot';
import { DomainError, ValidationError } from './errors.js';
import { entityId as id, nameField as name } from './fields.js';

/**
 * A chain's regions (docs/regions.md): each names its stores, and may sit under one parent region (two levels at
 * most: a parent is never itself a child). A store is in at most one region. Regions are configuration: a user's scope
 * and a report by region read them at request time, so a store placed in a region later counts there at once.
 */

/** At most this many regions a tenant, and stores a region (one configuration item each: ~5 bytes a store id). */
export const REGION_LIMITS = { regions: 500, stores: 10_000 } as const;

export const RegionConfig = v.strictObject({
  id,
  name: name(200),
  stores: v.optional(
    v.pipe(
      v.array(id, 'must be a list of store ids'),
      v.maxLength(REGION_LIMITS.stores, `may list at most ${REGION_LIMITS.stores} stores`),
    ),
    [],
  ),
  /** The region it belongs to, itself a region without a parent. */
  parent: v.optional(id),
});
export type RegionConfig = v.InferOutput<typeof RegionConfig>;

/** A problem with a list of regions, by the path of the field at fault (`[index, field, index?]`). */
export interface RegionProblem {
  path: (string | number)[];
  message: string;
}

/** What is wrong with a list of regions, each problem at its field: none when it is a forest of depth two. */
export function regionProblems(regions: readonly RegionConfig[]): RegionProblem[] {
  const problems: RegionProblem[] = [];
  const byId = new Map<number, RegionConfig>();
  regions.forEach((region, i) => {
    if (byId.has(region.id)) problems.push({ path: [i, 'id'], message: `region ${region.id} is defined twice` });
    else byId.set(region.id, region);
  });
  const regionOfStore = new Map<number, number>();
  regions.forEach((region, i) => {
    if (region.parent !== undefined) {
      const parent = byId.get(region.parent);
      const message =
        region.parent === region.id
          ? 'must not be the region itself'
          : !parent
            ? `region ${region.parent} is not defined in regions`
            : parent.parent !== undefined
              ? `region ${region.parent} is itself in region ${parent.parent} (regions have two levels at most)`
              : undefined;
      if (message) problems.push({ path: [i, 'parent'], message });
    }
    region.stores.forEach((store, s) => {
      const other = regionOfStore.get(store);
      if (other !== undefined)
        problems.push({
          path: [i, 'stores', s],
          message: `store ${store} is already in region ${other} (a store is in one region at most)`,
        });
      else regionOfStore.set(store, region.id);
    });
  });
  return problems;
}

/** The regions list of a configuration: each region valid, and the list a forest of depth two (`regionProblems`). */
export const Regions = v.pipe(
  v.array(RegionConfig, 'must be a list of regions'),
  v.maxLength(REGION_LIMITS.regions, `may list at most ${REGION_LIMITS.regions} regions`),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const list = dataset.value;
    for (const problem of regionProblems(list)) {
      const [index, field, item] = problem.path as [number, 'id' | 'parent' | 'stores', number?];
      const region = list[index]!;
      addIssue({
        message: problem.message,
        path: [
          { type: 'array', origin: 'value', input: list, key: index, value: region },
          { type: 'object', origin: 'value', input: region, key: field, value: region[field] },
          ...(item === undefined
            ? []
            : [{ type: 'array' as const, origin: 'value' as const, input: region.stores, key: item, value: region.stores[item] }]),
        ],
      });
    }
  }),
);

/** The stores of regions `ids` and of their child regions. */
export function storesOfRegions(regions: readonly RegionConfig[], ids: readonly number[]): number[] {
  const wanted = new Set(ids);
  const stores = regions.filter((r) => wanted.has(r.id) || (r.parent !== undefined && wanted.has(r.parent))).flatMap((r) => r.stores);
  return [...new Set(stores)];
}

/** Each store's regions: its own and, when that has one, its parent (a store's counts roll up to both). */
export function regionsByStore(regions: readonly RegionConfig[]): Map<number, number[]> {
  const parentOf = new Map(regions.map((r) => [r.id, r.parent]));
  const byStore = new Map<number, number[]>();
  for (const region of regions) {
    const parent = parentOf.get(region.id);
    for (const store of region.stores) byStore.set(store, parent === undefined ? [region.id] : [region.id, parent]);
  }
  return byStore;
}

/**
 * The stores a report may read when a request names `region`: those of `allowed` (a limited scope's; none: every
 * store) in the region or its child regions. No region named: `allowed` as it is. An unknown region is a 400 on `region`.
 */
export function regionLimit(
  allowed: readonly number[] | undefined,
  regions: readonly RegionConfig[],
  region: number | undefined,
): number[] | undefined {
  if (region === undefined) return allowed && [...allowed];
  if (!regions.some((r) => r.id === region))
    throw new ValidationError('No such region.', [{ path: 'region', message: `no region ${region}` }]);
  const inRegion = new Set(storesOfRegions(regions, [region]));
  return allowed ? allowed.filter((id) => inRegion.has(id)) : [...inRegion];
}

/** Region `region` of the configuration; one it does not have is a problem on `region` (422 on the stores API). */
export function requireRegion(regions: readonly RegionConfig[], region: number): RegionConfig {
  const found = regions.find((r) => r.id === region);
  if (!found)
    throw new DomainError('state-conflict', 'No such region.', [{ path: 'region', message: `no region ${region} in the configuration` }]);
  return found;
}

/** The regions with store `storeId` in region `region` and in no other (null: in none). */
export function withStoreIn(regions: readonly RegionConfig[], storeId: number, region: number | null): RegionConfig[] {
  if (region !== null) requireRegion(regions, region);
  return regions.map((r) => {
    const stores = r.stores.filter((store) => store !== storeId);
    return { ...r, stores: r.id === region ? [...stores, storeId] : stores };
  });
}
