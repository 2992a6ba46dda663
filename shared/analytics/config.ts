import * as v from 'valibot';
import { ANALYTICS_DEFAULTS } from '../settings/scales.js';

/** What the tenant's analytics export (shared/analytics/, docs/analytics.md) holds beyond the default. */
export const AnalyticsConfig = v.strictObject({
  /** The answers' comments: free text may name a person, so they leave the service only when the tenant opts in. */
  comments: v.optional(v.boolean('must be true or false'), ANALYTICS_DEFAULTS.comments),
});
export type AnalyticsConfig = v.InferOutput<typeof AnalyticsConfig>;

declare module '../settings/settings.js' {
  interface Settings {
    /** Absent: ANALYTICS_DEFAULTS. */
    analytics?: AnalyticsConfig;
  }
}
