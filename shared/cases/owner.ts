import { withRegionStores } from '../access/user-scope.js';
import { regionsByStore, type RegionConfig } from '../regions.js';
import type { CaseUsers } from './ports.js';
import { inScope } from './reads.js';

/**
 * Who owns a case (issue 46 §4): at most one person, a user who signs in (their name is their e-mail address) and whose
 * scope holds the case's store; never an API user (a name a tenant file gave a token), who is no one to call on.
 */
export const signsIn = (name: string) => /^[^\s@]+@[^\s@]+$/.test(name);

/** The regions a store is seen through: its region and that region's parent (a user of either sees it). */
export const regionsOfStore = (regions: readonly RegionConfig[], storeId: number): number[] => regionsByStore(regions).get(storeId) ?? [];

/**
 * The people who may own a store's cases, and whom a new one alerts: the enabled users who sign in and see the store,
 * through their stores or their regions (`regions`: the configuration's, as it is now).
 */
export async function peopleOf(
  users: CaseUsers,
  tenantId: number,
  { storeId, regions }: { storeId: number; regions: readonly RegionConfig[] },
): Promise<string[]> {
  const holding = await users.holding(tenantId, storeId, regionsOfStore(regions, storeId));
  return holding
    .filter((user) => signsIn(user.name) && !user.disabled)
    .map((user) => user.name)
    .sort();
}

/** A new case goes to the store's only person when exactly one sees it; otherwise it waits unassigned for one to take it. */
export const ownerOfNewCase = (people: string[]): string | null => (people.length === 1 ? people[0]! : null);

/** Whether this user may own a case of the store: one who signs in, enabled, whose scope (its regions resolved) holds it. */
export async function mayOwn(
  users: CaseUsers,
  tenantId: number,
  { name, storeId, regions }: { name: string; storeId: number; regions: readonly RegionConfig[] },
): Promise<boolean> {
  if (!signsIn(name)) return false;
  const user = await users.find(tenantId, name);
  return user !== undefined && !user.disabled && inScope(withRegionStores(user.scope, regions), storeId);
}

/**
 * The owner of a case stored before a case had one (its `owners`: every user in scope when it opened, or the one it
 * was reassigned to): its single person, when it names exactly one, else nobody. What a new case would get, then.
 */
export const ownerOfStored = (owners: readonly string[]): string | null => ownerOfNewCase(owners.filter(signsIn));
