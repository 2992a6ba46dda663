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
