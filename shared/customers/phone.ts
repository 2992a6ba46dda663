import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** Brazil is assumed when a phone carries no country code (seed 2.1). */
export const DEFAULT_COUNTRY = 'BR';

/** The E.164 form of a phone, or undefined when the text cannot be a phone number. */
export function toE164(text: string): string | undefined {
  const parsed = parsePhoneNumberFromString(text, DEFAULT_COUNTRY);
  return parsed?.isPossible() ? parsed.number : undefined;
}
