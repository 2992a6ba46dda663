import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { qrPng, qrSvg } from '../../shared/in-store/qr-draw.js';
import { qrPagePath } from '../../shared/in-store/qr-paths.js';
import { readQrCode, signQrCode, type QrCode } from '../../shared/in-store/qr-token.js';
import { surveyPage } from '../../shared/surveys/page-html.js';

const SECRET = 'unit-secret';
const code: QrCode = { tenantId: 7, storeId: 12, journeyId: 1, employeeId: 40, generation: 3 };

describe('a QR code token', () => {
  it('names its tenant, store, journey, employee and generation, and nothing else', () => {
    const token = signQrCode(code, SECRET);
    expect(token).toMatch(/^[\w-]{47}$/);
    expect(readQrCode(token, SECRET)).toEqual(code);
    const { employeeId: _, ...storeOnly } = code;
    expect(readQrCode(signQrCode(storeOnly, SECRET), SECRET)).toEqual(storeOnly);
  });

  it('is refused when altered, made up, or signed by another deployment', () => {
    const token = signQrCode(code, SECRET);
    const altered = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    expect(readQrCode(altered, SECRET)).toBeUndefined();
    expect(readQrCode(token, 'another-secret')).toBeUndefined();
    expect(readQrCode('x'.repeat(47), SECRET)).toBeUndefined();
    expect(readQrCode(`${token}A`, SECRET)).toBeUndefined();
  });
});

describe('a QR code picture', () => {
  const url = `https://surveys.example.com${qrPagePath(signQrCode(code, SECRET))}`;

  it('decodes, as a PNG, to the URL it was drawn for', async () => {
    const png = PNG.sync.read(await qrPng(url));
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(url);
  });

  it('is an SVG document with no script', async () => {
    const svg = await qrSvg(url);
    expect(svg).toMatch(/^<svg [^>]*viewBox/);
    expect(svg).not.toMatch(/<script|on\w+=/i);
  });
});

describe("a QR code's survey page", () => {
  const view = {
    locale: 'en' as const,
    brand: { name: 'Loja <b>' },
    token: 'abc',
    customerFirstName: '',
    question: { field: 'score', legend: 'How likely?', indicator: 'nps' as const, chosen: undefined, optional: false },
    followUps: [],
    classes: [],
    comment: '',
    problems: [],
  };

  it('asks for an optional contact, hides the field bots fill, and offers no opt-out (no customer is known)', () => {
    const { html } = surveyPage({ ...view, entry: { email: 'a"b@example.com', phone: '' } });
    expect(html).toContain('<input id="email" name="email" type="email"');
    expect(html).toContain('value="a&quot;b@example.com"');
    expect(html).toMatch(
      /<div class="hp"><label for="website">Leave this field empty<\/label><input id="website" name="website" tabindex="-1"/,
    );
    expect(html).not.toContain('unsubscribe');
    // A survey link's page keeps its opt-out and has no contact fields.
    const link = surveyPage(view).html;
    expect(link).toContain('abc/unsubscribe');
    expect(link).not.toContain('name="email"');
  });
});
