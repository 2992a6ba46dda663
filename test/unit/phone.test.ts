import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import metadata from 'libphonenumber-js/min/metadata';
import { describe, expect, it } from 'vitest';
import { bundle } from '../../bench/cold-start.js';
import { PHONE_METADATA_FILE, phoneMetadataText } from '../../infra/phone-metadata.js';
import { DEFAULT_COUNTRY, toE164 } from '../../shared/customers/phone.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What the whole library, with its default metadata, makes of a phone. */
const library = (text: string) => {
  const parsed = parsePhoneNumberFromString(text, DEFAULT_COUNTRY);
  return parsed?.isPossible() ? parsed.number : undefined;
};

/** A small deterministic generator, so that a failure names an input that fails again. */
function* phones(count: number): Generator<string> {
  let seed = 20261123;
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const digits = (n: number) => Array.from({ length: n }, () => next(10)).join('');
  const codes = Object.keys(metadata.country_calling_codes);
  const shapes = [
    () => `+${codes[next(codes.length)]}${digits(4 + next(11))}`,
    () => `00${codes[next(codes.length)]} ${digits(4 + next(11))}`,
    () => `${digits(8 + next(4))}`, // national, Brazil assumed
    () => `(${digits(2)}) 9${digits(4)}-${digits(4)}`,
    () => `0${digits(2)} ${digits(8 + next(2))}`, // with Brazil's trunk prefix
    () => `0${['12', '14', '15', '21', '31', '41', '43', '99'][next(8)]} ${digits(2)} 9${digits(8)}`, // carrier codes
    () => `+55 ${digits(2)} ${digits(4 + next(2))}-${digits(4)}`,
    () => `${digits(3)}.${digits(3)}.${digits(4)}`,
    () => `+1 (${digits(3)}) ${digits(3)}-${digits(4)}`,
    () => `${digits(4)} ${'abc'[next(3)]}${digits(5)}`,
    () => `+${digits(1 + next(3))} ${digits(next(16))}`,
  ];
  for (let i = 0; i < count; i++) yield shapes[i % shapes.length]!();
}

describe('phones', () => {
  it('normalise to E.164 with +55 assumed', () => {
    expect(toE164('(11) 98765-4321')).toBe('+5511987654321');
    expect(toE164('011 98765-4321')).toBe('+5511987654321');
    expect(toE164('0 21 11 98765 4321')).toBe('+5511987654321');
    expect(toE164('+1 415 555 2671')).toBe('+14155552671');
    expect(toE164('+351 912 345 678')).toBe('+351912345678');
    expect(toE164('123')).toBeUndefined();
    expect(toE164('not a phone')).toBeUndefined();
  });

  it('normalise exactly as the whole library does, on 30,000 generated numbers of every country code', () => {
    const differences: string[] = [];
    let possible = 0;
    for (const text of phones(30_000)) {
      const [ours, theirs] = [toE164(text), library(text)];
      if (theirs) possible++;
      if (ours !== theirs) differences.push(`${text}: ${ours} instead of ${theirs}`);
    }
    expect(differences.slice(0, 10)).toEqual([]);
    // The corpus holds both answers in number: a corpus of only rejections would prove nothing.
    expect(possible).toBeGreaterThan(10_000);
    expect(possible).toBeLessThan(28_000);
  });

  it('normalise exactly as the whole library does in the bundles too, whose parser is the library source (PHONE_PARSER)', async () => {
    const file = await bundle('phone', { file: 'shared/customers/phone.ts' }, `${ROOT}bench/.bundles/unit/`);
    // The bundle's parser is the aliased one: its modules are named by their source paths.
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('node_modules/libphonenumber-js/source/parse.js');
    expect(text).not.toContain('node_modules/libphonenumber-js/es6/');
    const bundled = (await import(file)) as { toE164: typeof toE164 };
    const differences: string[] = [];
    for (const text of phones(30_000)) {
      const [ours, theirs] = [bundled.toE164(text), library(text)];
      if (ours !== theirs) differences.push(`${text}: ${ours} instead of ${theirs}`);
    }
    expect(differences.slice(0, 10)).toEqual([]);
  });

  it('load metadata written from the installed library (npm run phone-metadata after an update)', () => {
    expect(readFileSync(PHONE_METADATA_FILE, 'utf8')).toBe(phoneMetadataText());
  });
});
