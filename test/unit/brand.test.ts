import { describe, expect, it } from 'vitest';
import { brandOf, DEFAULT_BRAND_COLOUR } from '../../shared/brand/brand.js';
import { contrastProblem, contrastRatio, relativeLuminance } from '../../shared/brand/contrast.js';
import { parseTenantFile } from '../../shared/tenants/tenant-file.js';

const tenantFile = (brand: Record<string, unknown>) => JSON.stringify({ tenants: [{ id: 7, name: 'acme', brand }] });

describe('WCAG contrast', () => {
  it('gives the relative luminance of the extremes and of a mid grey', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 10);
    // sRGB 0x80 linearises to 0.2158605 (WCAG 2.x formula).
    expect(relativeLuminance('#808080')).toBeCloseTo(0.2158605, 6);
  });

  it('gives the ratios of known pairs', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 10);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // The well-known edges of AA on white: #767676 passes (4.54:1), #777777 does not (4.48:1).
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    // Pure red on white is 4.00:1, pure blue 8.59:1; the order of the pair does not matter.
    expect(contrastRatio('#ff0000', '#ffffff')).toBeCloseTo(4.0, 2);
    expect(contrastRatio('#ffffff', '#0000ff')).toBeCloseTo(8.59, 2);
    expect(contrastRatio('#fff', '#000')).toBeCloseTo(21, 10);
  });

  it('passes a dark colour and the default, and names the ratio found and needed for a light one', () => {
    expect(contrastProblem(DEFAULT_BRAND_COLOUR)).toBeUndefined();
    expect(contrastProblem('#000')).toBeUndefined();
    // #767676 passes on white but not on the page's grey around the card (4.14:1).
    expect(contrastProblem('#767676')).toMatch(/^has a contrast ratio of 4\.1\d:1 against the page background #f3f4f6 .* at least 4\.5:1/);
    expect(contrastProblem('#ffcc00')).toMatch(/contrast ratio of 1\.\d+:1 .* at least 4\.5:1/);
  });
});

describe('the brand in the tenant file', () => {
  it('accepts a colour that passes AA, normalised to #rrggbb', () => {
    const [tenant] = parseTenantFile(tenantFile({ name: 'Acme Lojas', colour: '#14A', senderName: 'Acme' }), {}).tenants;
    expect(tenant!.brand).toEqual({ name: 'Acme Lojas', colour: '#1144aa', senderName: 'Acme' });
  });

  it('refuses a colour that fails AA, naming the field, the ratio found and the one needed', () => {
    expect(() => parseTenantFile(tenantFile({ colour: '#ffcc00' }), {})).toThrow(
      /^tenants\[0\]\.brand\.colour: has a contrast ratio of 1\.\d+:1 against the page background #f3f4f6 .*WCAG AA needs at least 4\.5:1/,
    );
  });

  it('refuses a colour that is not one', () => {
    expect(() => parseTenantFile(tenantFile({ colour: 'blue' }), {})).toThrow(
      /tenants\[0\]\.brand\.colour: must be a colour such as #0b5cad/,
    );
  });

  it('is empty when the file sets none', () => {
    expect(parseTenantFile(JSON.stringify({ tenants: [{ id: 7, name: 'acme' }] }), {}).tenants[0]!.brand).toEqual({});
  });
});

describe('brandOf', () => {
  const base = 'https://pesquisa.example.com/';

  it('defaults to the tenant name, the default colour, no logo, and the e-mail name or the display name as sender', () => {
    expect(brandOf({ delivery: {} }, { tenantName: 'Acme', baseUrl: base })).toEqual({
      name: 'Acme',
      colour: DEFAULT_BRAND_COLOUR,
      senderName: 'Acme',
    });
    expect(
      brandOf({ delivery: { email: { from: 'a@acme.example', name: 'Pesquisa Acme' } } }, { tenantName: 'Acme', baseUrl: base }).senderName,
    ).toBe('Pesquisa Acme');
  });

  it('takes what the tenant set, and serves the logo from its content-addressed path on the base URL', () => {
    const brand = brandOf(
      {
        delivery: { email: { from: 'a@acme.example', name: 'ignored' } },
        brand: { name: 'Acme Lojas', colour: '#1144aa', senderName: 'Acme', logo: { file: 'ab12.png', contentType: 'image/png' } },
      },
      { tenantName: 'acme', baseUrl: base },
    );
    expect(brand).toEqual({
      name: 'Acme Lojas',
      colour: '#1144aa',
      logoUrl: 'https://pesquisa.example.com/brand/logos/ab12.png',
      senderName: 'Acme',
    });
  });
});
