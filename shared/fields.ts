import * as v from 'valibot';
import { freeText } from './schema.js';

/*
 * The tenant file's basic fields, which its parts (the whole configuration in shared/tenants/config-schema.ts, the
 * brand, a user's scope) share: apart, so that a function checking one part does not build the whole configuration's
 * schema.
 */

/** An id of the tenant's things (stores, groups, journeys, classes): a positive 32-bit integer. */
export const entityId = v.pipe(
  v.number('must be a number'),
  v.integer('must be an integer'),
  v.minValue(1, 'must be at least 1'),
  v.maxValue(2_147_483_647, 'is too large'),
);

/** A name the tenant writes: not empty, at most `max` characters, no control or invisible characters. */
export const nameField = (max: number) =>
  v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `must be at most ${max} characters`),
    freeText(),
  );
