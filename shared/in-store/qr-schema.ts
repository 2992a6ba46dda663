import * as v from 'valibot';
import { integerString, MAX_INT_ID, text, wholeNumber } from '../schema.js';

/** GET /public/admin/qr: which store's code, for which journey (its slug), and optionally which employee. */
export const QrQuery = v.strictObject({
  store: integerString(1, MAX_INT_ID),
  journey: text(64),
  employee: v.optional(integerString(1, MAX_INT_ID)),
});

/** The JSON form of a code: the URL it opens. */
export const QrLinkBody = v.object({ url: v.string() });

/** A rotation's answer: the generation every code is signed under from now on. */
export const QrRotated = v.object({ generation: wholeNumber });

/** The form an entry's page (a QR code's, a kiosk's) posts, for the OpenAPI document. */
export const ENTRY_FORM: Record<string, string> = {
  score: 'The score of the main question, on the journey indicator scale (required)',
  'class_{classId}': "The score of one of the journey's classes, on its own scale (optional)",
  comment: 'At most 1,000 characters (optional)',
  email: 'An e-mail to be contacted back at (optional)',
  phone: 'A phone to be contacted back at (optional)',
  website: 'Left empty by people (a post that fills it is thanked and dropped)',
};
