import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LOGO_FILE, LogoError, logoObjectOf, MAX_LOGO_BYTES } from '../../shared/brand/logo.js';

import { MAX_LOGO_SIDE } from '../../shared/brand/logo-image.js';
import { DEMO_LOGO, distinctPng, png, pngChunk } from '../support/logos.js';

/** A JPEG's structure (SOI, a baseline frame header of 160 x 48, a scan header, two bytes of data, EOI). */
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x30, 0x00, 0xa0, 0x01, 0x01, 0x11, 0x00, 0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00,
  0x3f, 0x00, 0x00, 0x00, 0xff, 0xd9,
]);
/** A lossless WebP's header of `width` x `height`, its RIFF size its length. */
function webp(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(26);
  bytes.write('RIFF', 0, 'latin1');
  bytes.writeUInt32LE(18, 4);
  bytes.write('WEBPVP8L', 8, 'latin1');
  bytes.writeUInt32LE(6, 16);
  bytes[20] = 0x2f;
  bytes.writeUInt32LE((((height - 1) << 14) | (width - 1)) >>> 0, 21);
  return bytes;
}
const padded = (head: number[] | string, size = 64) => {
  const bytes = new Uint8Array(size);
  bytes.set(typeof head === 'string' ? Buffer.from(head, 'latin1') : head);
  return bytes;
};

describe('logos', () => {
  it('are named by the SHA-256 of their bytes and typed by their content, decoded in full', () => {
    const hash = createHash('sha256').update(DEMO_LOGO).digest('hex');
    expect(logoObjectOf(DEMO_LOGO)).toEqual({ file: `${hash}.png`, contentType: 'image/png' });
    expect(logoObjectOf(png(4, 3)).contentType).toBe('image/png');
    expect(logoObjectOf(JPEG)).toMatchObject({ file: expect.stringMatching(/\.jpg$/), contentType: 'image/jpeg' });
    expect(logoObjectOf(webp(160, 48))).toMatchObject({ file: expect.stringMatching(/\.webp$/), contentType: 'image/webp' });
    expect(LOGO_FILE.test(logoObjectOf(DEMO_LOGO).file)).toBe(true);
  });

  it('refuse a file that only starts like an image: a PNG signature and a script, a broken chunk, data after the end', () => {
    const script = Buffer.from('<script>alert(document.domain)</script>');
    expect(() => logoObjectOf(Buffer.concat([DEMO_LOGO.subarray(0, 8), script]))).toThrow(
      'The logo is not a whole PNG image (a chunk runs past its end).',
    );
    expect(() => logoObjectOf(Buffer.concat([DEMO_LOGO, script]))).toThrow('The logo holds data after the end of its PNG image.');
    const corrupt = Buffer.from(DEMO_LOGO);
    corrupt[20] = corrupt[20]! ^ 1; // a bit of the IHDR's width
    expect(() => logoObjectOf(corrupt)).toThrow('The logo is not a valid PNG image (the IHDR chunk fails its CRC).');
    const headless = Buffer.concat([DEMO_LOGO.subarray(0, 8), pngChunk('tEXt', script), DEMO_LOGO.subarray(8)]);
    expect(() => logoObjectOf(headless)).toThrow('does not begin with its IHDR header');
    expect(() => logoObjectOf(Buffer.concat([JPEG, script]))).toThrow('The logo holds data after the end of its JPEG image.');
    expect(() => logoObjectOf(Buffer.concat([JPEG.subarray(0, 4), script]))).toThrow(LogoError);
    expect(() => logoObjectOf(Buffer.concat([webp(160, 48), script]))).toThrow('its RIFF size is not its length');
    expect(() => logoObjectOf(padded([0xff, 0xd8, 0xff, 0xe0]))).toThrow(LogoError);
  });

  it(`refuse an image wider or taller than ${MAX_LOGO_SIDE} pixels, naming its size`, () => {
    expect(logoObjectOf(png(MAX_LOGO_SIDE, 1)).contentType).toBe('image/png');
    expect(() => logoObjectOf(png(MAX_LOGO_SIDE + 1, 1))).toThrow(
      `The logo is ${MAX_LOGO_SIDE + 1} x 1 pixels; at most ${MAX_LOGO_SIDE} x ${MAX_LOGO_SIDE} is accepted.`,
    );
    expect(() => logoObjectOf(webp(1, 5000))).toThrow('is 1 x 5000 pixels');
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
    const limit = distinctPng('x'.repeat(MAX_LOGO_BYTES - DEMO_LOGO.length - 20));
    expect(limit.length).toBe(MAX_LOGO_BYTES);
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
