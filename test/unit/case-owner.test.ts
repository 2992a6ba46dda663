import { describe, expect, it } from 'vitest';
import { mayOwn, ownerOfNewCase, ownerOfStored, peopleOf } from '../../shared/cases/owner.js';
import type { CaseUser, CaseUsers } from '../../shared/cases/ports.js';
import { inScope } from '../../shared/cases/reads.js';
import type { RegionConfig } from '../../shared/regions.js';

/** The tenant's users in memory, keeping the port's promises: `holding` is every user whose scope holds the store. */
const usersOf = (list: CaseUser[]): CaseUsers => ({
  holding: async (_tenantId, storeId, regions) =>
    list.filter(
      (user) => inScope(user.scope, storeId) || (user.scope !== 'all' && (user.scope.regions ?? []).some((r) => regions.includes(r))),
    ),
  phonesOf: async () => new Map(),
  find: async (_tenantId, name) => list.find((user) => user.name === name),
});

const users = usersOf([
  { name: 'admin-api', scope: 'all', disabled: false },
  { name: 'boss@loja.test', scope: 'all', disabled: false },
  { name: 'ana@loja.test', scope: { stores: [1], groups: [] }, disabled: false },
  { name: 'old@loja.test', scope: { stores: [1, 2], groups: [] }, disabled: true },
  { name: 'limited', scope: { stores: [2], groups: [] }, disabled: false },
  { name: 'solo@loja.test', scope: { stores: [3], groups: [] }, disabled: false },
  { name: 'sul@loja.test', scope: { stores: [], groups: [], regions: [1] }, disabled: false },
]);
/** Region 1 holds store 4 and its child region 2, which holds store 5. */
const REGIONS: RegionConfig[] = [
  { id: 1, name: 'Sul', stores: [4] },
  { id: 2, name: 'RS', stores: [5], parent: 1 },
];

describe('who owns a case', () => {
  it("counts as a store's people only the enabled users who sign in (an e-mail address) and see it, never an API user", async () => {
    expect(await peopleOf(users, 7, { storeId: 1, regions: REGIONS })).toEqual(['ana@loja.test', 'boss@loja.test']);
    expect(await peopleOf(users, 7, { storeId: 2, regions: REGIONS })).toEqual(['boss@loja.test']);
  });

  it("counts a user scoped to a region among the people of its stores and of its child regions' stores", async () => {
    expect(await peopleOf(users, 7, { storeId: 4, regions: REGIONS })).toEqual(['boss@loja.test', 'sul@loja.test']);
    expect(await peopleOf(users, 7, { storeId: 5, regions: REGIONS })).toEqual(['boss@loja.test', 'sul@loja.test']);
    expect(await peopleOf(users, 7, { storeId: 1, regions: REGIONS })).not.toContain('sul@loja.test');
    const may = (store: number) => mayOwn(users, 7, { name: 'sul@loja.test', storeId: store, regions: REGIONS });
    expect(await Promise.all([may(4), may(5), may(1)])).toEqual([true, true, false]);
  });

  it("gives a new case to the store's only person, and leaves it unassigned when there are several or none", () => {
    expect(ownerOfNewCase(['boss@loja.test'])).toBe('boss@loja.test');
    expect(ownerOfNewCase(['ana@loja.test', 'boss@loja.test'])).toBeNull();
    expect(ownerOfNewCase([])).toBeNull();
  });

  it('lets a case be owned only by an enabled person whose scope holds its store', async () => {
    const may = (name: string, store: number) => mayOwn(users, 7, { name, storeId: store, regions: REGIONS });
    expect(await Promise.all([may('ana@loja.test', 1), may('boss@loja.test', 3)])).toEqual([true, true]);
    expect(
      await Promise.all([may('ana@loja.test', 2), may('old@loja.test', 1), may('admin-api', 1), may('limited', 2), may('x@loja.test', 1)]),
    ).toEqual([false, false, false, false, false]);
  });

  it('reads a case stored with every user in scope as its single person, else as unassigned', () => {
    expect(ownerOfStored(['admin-api', 'limited', 'ana@loja.test'])).toBe('ana@loja.test');
    expect(ownerOfStored(['admin-api', 'ana@loja.test', 'boss@loja.test'])).toBeNull();
    expect(ownerOfStored(['admin-api'])).toBeNull();
    expect(ownerOfStored([])).toBeNull();
  });
});
