// The default export, the one function bundles take from the library's source (PHONE_PARSER, infra/bundling/bundles.ts).
import parsePhoneNumberFromString from 'libphonenumber-js/core';
import type { MetadataJson } from 'libphonenumber-js/core';
import * as v from 'valibot';
import { PHONE_METADATA } from './phone-metadata.js';

/** Brazil (+55) is assumed when a phone carries no country code. */
export const DEFAULT_COUNTRY = 'BR';

let metadata: MetadataJson | undefined;

/**
 * The E.164 form of a phone, or undefined when the text cannot be a phone number. The metadata is libphonenumber's
 * own without its formatting rules (written by `npm run phone-metadata`): a third of the size to load, and read from
 * its text at the first phone rather than at the cold start.
 */
export function toE164(text: string): string | undefined {
  metadata ??= JSON.parse(PHONE_METADATA) as MetadataJson;
  const parsed = parsePhoneNumberFromString(text, DEFAULT_COUNTRY, metadata);
  return parsed?.isPossible() ? parsed.number : undefined;
}

export const MAX_PHONE_LENGTH = 20;

/** A phone as sent (at most 20 characters), normalised to E.164 with +55 assumed. */
export const phone = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.maxLength(MAX_PHONE_LENGTH, `must be at most ${MAX_PHONE_LENGTH} characters`),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const e164 = toE164(dataset.value);
    if (!e164) {
      addIssue({ message: 'is not a phone number' });
      return NEVER;
    }
    return e164;
  }),
);
