import metadata from 'libphonenumber-js/min/metadata';

/**
 * The phone metadata the functions load: libphonenumber's own "min" metadata without the national formatting
 * rules, which only formatting and as-you-type use. Parsing, the possible-length check and E.164 read the rest
 * unchanged, so every number normalises as the whole library normalises it (test/unit/phone.test.ts compares them),
 * at 40% of the size and of the time it takes to load.
 */
export function phoneMetadata() {
  const countries = Object.fromEntries(
    Object.entries(metadata.countries).map(([country, plan]) => {
      const reduced: unknown[] = [...plan];
      reduced[4] = 0; // the national formats
      return [country, reduced];
    }),
  );
  return { ...metadata, countries };
}

/** The module shared/customers/phone.ts imports, written by `npm run phone-metadata` after libphonenumber-js updates. */
export const PHONE_METADATA_FILE = new URL('../shared/customers/phone-metadata.ts', import.meta.url);

/**
 * The metadata as the text of a JSON document in a string, not as an object literal: a string costs the import only
 * its scanning, and phone.ts parses it at the first phone (the object literal, 36 KiB in every function that takes
 * phones, was built at every cold start, whether a phone came or not).
 */
export const phoneMetadataText = () =>
  [
    '// Written by `npm run phone-metadata` (infra/phone-metadata.ts) from the installed libphonenumber-js: do not edit.',
    `export const PHONE_METADATA = '${JSON.stringify(phoneMetadata()).replaceAll('\\', '\\\\').replaceAll("'", "\\'")}';`,
    '',
  ].join('\n');
