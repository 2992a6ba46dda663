import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOGO_FILE, LogoError, logoObjectOf, MAX_LOGO_BYTES } from '../../shared/brand/logo.js';

const DEMO_LOGO = readFileSync(new URL('../../infra/local/demo-logo.png', import.meta.url));
const padded = (head: number[] | string, size = 64) => {
  const bytes = new Uint8Array(size);
  bytes.set(typeof head === 'string' ? Buffer.from(head, 'latin1') : head);
  return bytes;
};

describe('logos', () => {
  it('are named by the SHA-256 of their bytes and typed by their leading bytes', () => {
    const hash = createHash('sha256').update(DEMO_LOGO).digest('hex');
    expect(logoObjectOf(DEMO_LOGO)).toEqual({ file: `${hash}.png`, contentType: 'image/png' });
    expect(logoObjectOf(padded([0xff, 0xd8, 0xff, 0xe0]))).toMatchObject({
      file: expect.stringMatching(/\.jpg$/),
      contentType: 'image/jpeg',
    });
    expect(logoObjectOf(padded('RIFF\x24\x00\x00\x00WEBPVP8 '))).toMatchObject({
      file: expect.stringMatching(/\.webp$/),
      contentType: 'image/webp',
    });
    expect(LOGO_FILE.test(logoObjectOf(DEMO_LOGO).file)).toBe(true);
  });

  it('refuse an SVG, saying why', () => {
    for (const svg of ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', '<?xml version="1.0"?>\n<svg></svg>'])
      expect(() => logoObjectOf(Buffer.from(svg))).toThrow(
        'The logo is an SVG, which is refused (it can carry scripts); export it as PNG or WebP.',
      );
  });

  it('refuse what is not a PNG, JPEG or WebP whatever its name, and an empty file', () => {
    expect(() => logoObjectOf(padded('GIF89a'))).toThrow(
      'The logo is not a PNG, JPEG or WebP image (judged by its content, not its name).',
    );
    expect(() => logoObjectOf(padded('RIFF\x24\x00\x00\x00WAVEfmt '))).toThrow(LogoError);
    expect(() => logoObjectOf(new Uint8Array(0))).toThrow('The logo is empty.');
  });

  it('refuse more than 200 KB, naming the size found and the limit', () => {
    const big = new Uint8Array(MAX_LOGO_BYTES + 1);
    big.set(DEMO_LOGO);
    expect(() => logoObjectOf(big)).toThrow('The logo is 201 KB; at most 200 KB is accepted.');
    const limit = new Uint8Array(MAX_LOGO_BYTES);
    limit.set(DEMO_LOGO);
    expect(logoObjectOf(limit).contentType).toBe('image/png');
  });

  it('is a validation error naming the brand.logo field', () => {
    const error = (() => {
      try {
        logoObjectOf(padded('GIF89a'));
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(LogoError);
    expect(error).toMatchObject({ kind: 'validation', errors: [{ path: 'brand.logo' }] });
  });
});
