import { describe, expect, it } from 'vitest';
import { chooseEncoding } from '../../shared/http/reference.js';

describe('the content coding the reference answers with', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['BR', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.1, gzip;q=0.9', 'br'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', undefined],
    ['deflate', undefined],
    ['gzip;q=0', undefined],
    ['', undefined],
  ])('for Accept-Encoding %j is %s', (accept, coding) => {
    expect(chooseEncoding(accept)).toBe(coding);
  });

  it('is none without an Accept-Encoding header', () => {
    expect(chooseEncoding(undefined)).toBeUndefined();
  });
});
