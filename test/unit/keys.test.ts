import { describe, expect, it } from 'vitest';
import { keys, padId } from '../../shared/keys.js';
import { hashSecret, newSecret } from '../../shared/access/credentials.js';

describe('keys', () => {
  it('start every tenant item with the tenant', () => {
    expect(keys.entity(12, 'STORE', 3)).toEqual({ pk: 'T#12#STORE#3', sk: 'STORE' });
    expect(keys.externalId(12, 'STORE', 'EX-1').pk).toBe('T#12#STORE#EXT#EX-1');
    expect(keys.collection(12, 'STORE')).toBe('T#12#STORE');
  });

  it('pad ids so that sort keys sort numerically', () => {
    expect([padId(10), padId(9), padId(100)].sort()).toEqual([padId(9), padId(10), padId(100)]);
  });
});

describe('secrets', () => {
  it('are high-entropy and hash to a stable SHA-256', () => {
    const a = newSecret('ssk');
    expect(a).toMatch(/^ssk_[\w-]{43}$/);
    expect(newSecret('ssk')).not.toBe(a);
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
