import * as v from 'valibot';
import { instant, MAX_INT_ID, text } from '../schema.js';

const id = v.pipe(
  v.number('must be a number'),
  v.integer('must be a whole number'),
  v.minValue(1, 'must be 1 or more'),
  v.maxValue(MAX_INT_ID, `must be at most ${MAX_INT_ID}`),
);

/** How many answers a kiosk takes a day (in the tenant's zone) at most: the admin sets it, within these bounds. */
export const KIOSK_DAILY_CAP = { min: 1, max: 10_000, default: 1_000 } as const;

const dailyCap = v.pipe(
  v.number('must be a number'),
  v.integer('must be a whole number'),
  v.minValue(KIOSK_DAILY_CAP.min, `must be at least ${KIOSK_DAILY_CAP.min}`),
  v.maxValue(KIOSK_DAILY_CAP.max, `must be at most ${KIOSK_DAILY_CAP.max}`),
);

/**
 * POST /public/admin/kiosks: the tablet's store, journey (its slug), optional employee, a name to know it by, and
 * optionally its daily cap (KIOSK_DAILY_CAP.default when absent).
 */
export const NewKioskBody = v.strictObject({
  store: id,
  journey: text(64),
  employee: v.optional(id),
  name: text(80),
  daily_cap: v.optional(dailyCap),
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
  /** The answers it takes a day at most (in the tenant's zone); past them, 429 until the next day. */
  daily_cap: v.number(),
  created_at: instant,
  revoked_at: v.nullable(instant),
});
export type KioskView = v.InferOutput<typeof KioskView>;

/** A kiosk just registered: its device token and the address the tablet opens once, shown this once. */
export const RegisteredKioskView = v.object({ ...KioskView.entries, token: v.string(), url: v.string() });
export type RegisteredKioskView = v.InferOutput<typeof RegisteredKioskView>;
