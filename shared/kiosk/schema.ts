import * as v from 'valibot';
import { instant, MAX_INT_ID, text } from '../schema.js';

const id = v.pipe(
  v.number('must be a number'),
  v.integer('must be a whole number'),
  v.minValue(1, 'must be 1 or more'),
  v.maxValue(MAX_INT_ID, `must be at most ${MAX_INT_ID}`),
);

/** POST /public/admin/kiosks: the tablet's store, journey (its slug), optional employee, and a name to know it by. */
export const NewKioskBody = v.strictObject({
  store: id,
  journey: text(64),
  employee: v.optional(id),
  name: text(80),
});
export type NewKioskBody = v.InferOutput<typeof NewKioskBody>;

/** DELETE /public/admin/kiosks/{id}: a kiosk's id (16 hex digits). */
export const KioskIdPath = v.strictObject({ id: v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/, 'must be a kiosk id (16 hex digits)')) });

/** A kiosk as the admin API answers it: never its token. */
export const KioskView = v.object({
  id: v.string(),
  name: v.string(),
  store: v.number(),
  journey: v.string(),
  employee: v.nullable(v.number()),
  created_at: instant,
  revoked_at: v.nullable(instant),
});
export type KioskView = v.InferOutput<typeof KioskView>;

/** A kiosk just registered: its device token and the address the tablet opens once, shown this once. */
export const RegisteredKioskView = v.object({ ...KioskView.entries, token: v.string(), url: v.string() });
export type RegisteredKioskView = v.InferOutput<typeof RegisteredKioskView>;
