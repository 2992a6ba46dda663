import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { logoStore } from '../../shared/adapters/logo-store.js';
import { logoPath } from '../../shared/brand/brand.js';
import { storeLogo } from '../../shared/brand/logo.js';

/** Over HTTP through the local gateway, which runs the function under its role (s3:GetObject on the logo bucket). */
const get = (path: string) => fetch(`${inject('publicUrl')}${path}`);
const DEMO_LOGO = readFileSync(new URL('../../infra/local/demo-logo.png', import.meta.url));

describe('GET /brand/logos/{file}', () => {
  it('serves a stored logo with its type and a year of immutable caching, without a key', async () => {
    const { file } = await storeLogo(DEMO_LOGO, logoStore);
    const res = await get(logoPath(file));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(DEMO_LOGO)).toBe(true);
  });

  it('answers 404 for a well-formed name that holds no logo', async () => {
    const res = await get(logoPath(`${'0'.repeat(64)}.png`));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(((await res.json()) as { detail: string }).detail).toBe('No such logo.');
  });

  it('answers 400 naming the path parameter for a name that cannot be a logo', async () => {
    for (const name of ['logo.png', `${'a'.repeat(64)}.svg`, `${'A'.repeat(64)}.png`]) {
      const res = await get(logoPath(name));
      expect(res.status, name).toBe(400);
      const body = (await res.json()) as { errors: { path: string; message: string }[] };
      expect(body.errors[0], name).toMatchObject({ path: 'file', message: expect.stringContaining('must be a logo name') });
    }
  });
});
