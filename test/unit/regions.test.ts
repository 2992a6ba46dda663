import { describe, expect, it } from 'vitest';
import { outsideScope, UserScope, withRegionStores } from '../../shared/access/user-scope.js';
import { validate } from '../../shared/http/validate.js';
import { regionsByStore, storesOfRegions, type RegionConfig } from '../../shared/regions.js';
import { ConfigDocument } from '../../shared/tenants/config-schema.js';
import { ValidationError } from '../../shared/errors.js';
import * as v from 'valibot';

/** The problems PUT /public/admin/config answers for a document with these regions. */
function problemsOf(regions: unknown): { path: string; message: string }[] {
  try {
    validate(ConfigDocument, { name: 'Loja', regions }, 'body');
    return [];
  } catch (error) {
    if (error instanceof ValidationError) return error.errors;
    throw error;
  }
}

const sul = { id: 1, name: 'Sul', stores: [1, 2] };

describe('regions in the configuration', () => {
  it('takes regions of two levels, each store in one region', () => {
    // Prepare / Act / Assess
    expect(problemsOf([sul, { id: 2, name: 'Porto Alegre', stores: [3], parent: 1 }, { id: 3, name: 'Norte' }])).toEqual([]);
  });

  it('refuses a store in two regions, naming the second listing', () => {
    expect(problemsOf([sul, { id: 2, name: 'Norte', stores: [5, 2] }])).toEqual([
      { path: 'regions.1.stores.1', message: 'store 2 is already in region 1 (a store is in one region at most)' },
    ]);
  });

  it('refuses a parent that is itself a child (a third level)', () => {
    const problems = problemsOf([sul, { id: 2, name: 'RS', parent: 1 }, { id: 3, name: 'Porto Alegre', parent: 2 }]);
    expect(problems).toEqual([{ path: 'regions.2.parent', message: 'region 2 is itself in region 1 (regions have two levels at most)' }]);
  });

  it('refuses an unknown parent', () => {
    expect(problemsOf([{ ...sul, parent: 9 }])).toEqual([{ path: 'regions.0.parent', message: 'region 9 is not defined in regions' }]);
  });

  it('refuses a cycle, and a region that is its own parent', () => {
    const cycle = problemsOf([
      { id: 1, name: 'A', parent: 2 },
      { id: 2, name: 'B', parent: 1 },
    ]);
    expect(cycle.map((p) => p.path)).toEqual(['regions.0.parent', 'regions.1.parent']);
    expect(problemsOf([{ id: 1, name: 'A', parent: 1 }])).toEqual([{ path: 'regions.0.parent', message: 'must not be the region itself' }]);
  });

  it('refuses a region id twice, and more than 500 regions', () => {
    expect(problemsOf([sul, { id: 1, name: 'Norte' }])).toEqual([{ path: 'regions.1.id', message: 'region 1 is defined twice' }]);
    const many = Array.from({ length: 501 }, (_, i) => ({ id: i + 1, name: `R${i + 1}` }));
    expect(problemsOf(many)).toEqual([{ path: 'regions', message: 'may list at most 500 regions' }]);
  });
});

describe('the stores of regions', () => {
  const regions: RegionConfig[] = [
    { id: 1, name: 'Sul', stores: [1] },
    { id: 2, name: 'RS', stores: [2, 3], parent: 1 },
    { id: 3, name: 'Norte', stores: [4] },
  ];

  it('are those of the regions and of their child regions', () => {
    expect(storesOfRegions(regions, [1]).sort()).toEqual([1, 2, 3]);
    expect(storesOfRegions(regions, [2]).sort()).toEqual([2, 3]);
    expect(storesOfRegions(regions, [9])).toEqual([]);
  });

  it('roll up to the parent: each store counts in its region and its parent', () => {
    expect(Object.fromEntries(regionsByStore(regions))).toEqual({ 1: [1], 2: [2, 1], 3: [2, 1], 4: [3] });
  });

  it('are added to a scope that names regions when it is resolved, not stored', () => {
    const scope = v.parse(UserScope, { stores: [9], groups: [], regions: [2] });
    expect(withRegionStores(scope, regions)).toEqual({ stores: [9, 2, 3], groups: [], regions: [2] });
    expect(withRegionStores({ stores: [9], groups: [] }, regions)).toEqual({ stores: [9], groups: [] });
  });

  it('a region outside the grantor scope is named as such', () => {
    expect(outsideScope({ stores: [], groups: [], regions: [1, 3] }, { stores: [], groups: [], regions: [1] })).toEqual({
      stores: [],
      groups: [],
      regions: [3],
    });
    expect(
      outsideScope({ stores: [2], groups: [], regions: [1] }, withRegionStores({ stores: [], groups: [], regions: [1] }, regions)),
    ).toBe(undefined);
  });
});
