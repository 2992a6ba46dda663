import * as v from 'valibot';
import { flag } from '../settings/fields.js';

/** What the analytics settings hold where they leave a field out, and the settings reader gives an item written before it. */
export const ANALYTICS_DEFAULTS = { comments: false } as const;

/** What the tenant's analytics export (shared/analytics/, docs/analytics.md) holds beyond the default. */
export const AnalyticsConfig = v.strictObject({
  /** The answers' comments: free text may name a person, so they leave the service only when the tenant opts in. */
  comments: flag(ANALYTICS_DEFAULTS.comments),
});
export type AnalyticsConfig = v.InferOutput<typeof AnalyticsConfig>;

declare module '../settings/settings.js' {
  interface Settings {
    /** Absent: ANALYTICS_DEFAULTS. */
    analytics?: AnalyticsConfig;
  }
}
