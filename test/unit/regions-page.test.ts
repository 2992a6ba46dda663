import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../shared/access/ports.js';
import type { ConfigDocument } from '../../shared/tenants/config-schema.js';
import { changeConfig } from '../../shared/workspace/admin-config-form.js';
import { adminRegionsForm, adminRegionsPage } from '../../shared/workspace/admin-regions-page.js';

/** The regions admin page as a pure function of the configuration and the stores' names (docs/regions.md). */
const ADMIN: UserRecord = { name: 'admin@aurora.test', scope: 'all', tokenHash: 'x', created_at: '2026-01-01T00:00:00Z', role: 'admin' };
const config = {
  name: 'Aurora',
  regions: [
    { id: 1, name: 'Sul', stores: [1] },
    { id: 2, name: 'Porto Alegre', stores: [2], parent: 1 },
    { id: 3, name: 'Norte', stores: [] },
  ],
} as unknown as ConfigDocument;
const ports = {
  settings: async () => ({ locale: 'pt-BR' as const, timeZone: 'UTC', delivery: {}, brand: { name: 'Aurora' } }),
  readConfig: async () => ({ config, version: 7 }),
  replaceConfig: async () => ({ version: 8, changes: [] }),
  storeChoices: async () =>
    new Map([
      [1, 'Loja Centro'],
      [2, 'Loja Moinhos'],
    ]),
};
const request = (query: Record<string, string>, form: Record<string, string> = {}) => ({
  tenantId: 1,
  user: ADMIN,
  base: '',
  query,
  form: new URLSearchParams(form),
});

describe('the regions page', () => {
  it('lists each region under its parent and offers as parents only main regions other than itself', async () => {
    const page = (await adminRegionsPage(ports).showRegions(request({ edit: '1' }))).html!;
    expect(page).toContain('<h3>Porto Alegre</h3>\n<p>Dentro de Sul</p>');
    expect(page.indexOf('id="region-2"')).toBeLessThan(page.indexOf('id="region-3"'));
    const parents = [...page.matchAll(/<option value="(\d*)"[^>]*>([^<]+)<\/option>/g)].map((m) => m[2]);
    expect(parents).toEqual(['Nenhuma (região principal)', 'Norte']);
    expect(page).toContain('<input type="checkbox" name="stores" value="1" checked> Loja Centro</label>');
    expect(page).toContain('value="2"> Loja Moinhos (hoje em Porto Alegre)</label>');
    expect(page).toContain('<input type="hidden" name="etag" value="7">');
  });

  it('refuses to delete a region that still holds another, saying why, and writes nothing', async () => {
    let written = false;
    const form = adminRegionsForm({ ...ports, replaceConfig: async () => ((written = true), { version: 8, changes: [] }) }, changeConfig);
    const answer = await form.saveRegion(request({}, { etag: '7', action: 'delete', id: '1' }));
    expect(answer.status).toBe(400);
    expect(answer.html).toContain('A região Sul tem regiões dentro dela: exclua-as ou mude-as de região antes.');
    expect(written).toBe(false);
  });
});
