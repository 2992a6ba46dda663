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

/** The file shared/customers/phone.ts imports, written by `npm run phone-metadata` after libphonenumber-js updates. */
export const PHONE_METADATA_FILE = new URL('../shared/customers/phone-metadata.json', import.meta.url);

export const phoneMetadataText = () => `${JSON.stringify(phoneMetadata())}\n`;
