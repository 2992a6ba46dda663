import * as v from 'valibot';
import { nameField as name } from '../fields.js';
import { clockTime, timeZone } from '../settings/fields.js';
import { DAYS } from '../settings/scales.js';

/**
 * A tenant's cases (shared/cases/): the root causes a manager picks from when resolving one, and the working hours
 * its deadlines count (business hours). Absent: DEFAULT_CASES (shared/cases/rules.ts).
 */
export const CasesConfig = v.strictObject({
  rootCauses: v.optional(
    v.pipe(
      v.array(name(100), 'must be a list of root causes'),
      v.minLength(1, 'must list at least one root cause'),
      v.maxLength(50, 'may list at most 50 root causes'),
    ),
  ),
  workingHours: v.optional(
    v.strictObject({
      /** The tenant's time zone when absent. */
      timeZone: v.optional(timeZone),
      days: v.pipe(
        v.array(v.picklist(DAYS, `must be one of ${DAYS.join(', ')}`), 'must be a list of days'),
        v.minLength(1, 'must list at least one day'),
        v.maxLength(DAYS.length, `may list at most ${DAYS.length} days`),
      ),
      from: clockTime,
      to: clockTime,
    }),
  ),
});
export type CasesConfig = v.InferOutput<typeof CasesConfig>;

declare module '../settings/settings.js' {
  interface Settings {
    /** Absent: DEFAULT_CASES. */
    cases?: CasesConfig;
  }
}
