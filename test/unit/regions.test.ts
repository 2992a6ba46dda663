import { describe, expect, it } from 'vitest';
import { outsideScope, UserScope, withRegionStores } from '../../shared/access/user-scope.js';
import { validate } from '../../shared/http/validate.js';
import { regionsByStore, storesOfRegions, type RegionConfig } from '../../shared/regions.js';
import { ConfigDocument } from '../../shared/tenants/config-schema.js';
import { ValidationError } from '../../shared/errors.js';
import * as v from 'valibot';
import { rowOf } from '../../shared/results/report.js';
import type { Report } from '../../shared/results/service.js';
import type { ResultsQuery } from '../../shared/results/schema.js';
import type { JourneyConfig } from '../../shared/tenants/config-schema.js';
import { resultsPage } from '../../shared/workspace/results-page.js';

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

describe('the results page by region', () => {
  const journey = { id: 1, slug: 'visit', name: 'Visita', indicator: 'nps', classes: [], channels: ['email'] } as unknown as JourneyConfig;
  const regions: RegionConfig[] = [
    { id: 1, name: 'Sul <b>', stores: [1] },
    { id: 2, name: 'RS', stores: [2], parent: 1 },
  ];
  async function page(query: Record<string, string>, withRegions = true) {
    const asked: ResultsQuery[] = [];
    const themesAsked: Omit<ResultsQuery, 'group_by'>[] = [];
    const answer = await resultsPage({
      settings: async () => ({ journeys: [journey], locale: 'es', ...(withRegions ? { regions } : {}) }),
      examples: async () => new Map(),
      report: async (_tenant, q): Promise<Report> => {
        asked.push(q);
        return {
          journey: { id: 1, slug: 'visit', indicator: 'nps' },
          from: q.from,
          to: q.to,
          group_by: q.group_by,
          min_sample: 5,
          min_answers_to_rank: 5,
          compared_with: null,
          data: [
            rowOf({
              key: ['day', 'week', 'month'].includes(q.group_by) ? '2026-11-20' : '1',
              label: 'Sul <b>',
              counts: { n: 6, sum: 54, p: 5, d: 0 },
              indicator: 'nps',
              minSample: 5,
            }),
          ],
        };
      },
      drivers: async () => {
        throw new Error('a journey without items has no drivers');
      },
      themes: async (_tenant, q) => (
        themesAsked.push(q),
        {
          journey: { id: 1, slug: 'visit', indicator: 'nps' },
          from: q.from,
          to: q.to,
          group_by: 'theme',
          previous: { from: '2026-10-06', to: '2026-10-31' },
          data: [],
        }
      ),
    })({
      tenantId: 1,
      user: { name: 'g', scope: 'all', tokenHash: 'x', created_at: '2026-01-01T00:00:00Z' },
      base: '',
      query: { from: '2026-11-01', to: '2026-11-26', ...query },
      today: '2026-11-26',
    });
    return { html: answer.html!, asked, themesAsked };
  }

  it('ranks the regions and offers them as a filter, in the tenant language, narrowing every figure to the region chosen', async () => {
    const { html, asked, themesAsked } = await page({ region: '2' });
    expect(html).toContain('Regiones');
    // The themes too (the period's and the 12 weeks' lines): never the company's under a region's summary.
    expect(themesAsked.map((q) => q.region)).toEqual([2, 2]);
    expect(html).toContain('<select id="region" name="region">');
    expect(html).toContain('<option value="2" selected>RS</option>');
    expect(html).toContain('Sul &lt;b&gt;');
    expect(asked.map((q) => q.group_by)).toContain('region');
    expect(asked.every((q) => q.region === 2)).toBe(true);
  });

  it('shows no region level to a tenant without regions', async () => {
    const { html, asked } = await page({}, false);
    expect(html).not.toContain('Regiones');
    expect(html).not.toContain('name="region"');
    expect(asked.map((q) => q.group_by)).not.toContain('region');
  });
});
