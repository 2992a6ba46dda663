/**
 * The plain values a tenant's configuration is made of: score scales, buckets, days, attempt bounds, default quiet
 * hours. Apart from the configuration's schemas (config-schema.ts) so that a function that only scores or schedules
 * does not build every schema of the configuration at its cold start.
 */

/** Score scales: a score is supported when it is an integer inside its indicator's scale. */
export const INDICATORS = {
  nps: { min: 0, max: 10 },
  csat: { min: 1, max: 5 },
  csat5Stars: { min: 1, max: 5 },
  ces: { min: 1, max: 7 },
  binary: { min: 0, max: 1 },
} as const;
export type Indicator = keyof typeof INDICATORS;
/** Whether a score is on an indicator's scale. */
export const isSupported = (indicator: Indicator, score: number) =>
  Number.isInteger(score) && score >= INDICATORS[indicator].min && score <= INDICATORS[indicator].max;

/** A survey is sent at most this many times, each attempt waiting at most MAX_ATTEMPT_WAIT_MINUTES after the previous. */
export const MAX_ATTEMPTS = 5;
export const MAX_ATTEMPT_WAIT_MINUTES = 43_200;

/** The buckets a main score falls in: NPS's three groups, thirds of the scale for the other indicators. */
export const BUCKETS = ['detractor', 'passive', 'promoter', 'low', 'mid', 'high'] as const;
export type Bucket = (typeof BUCKETS)[number];

export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekDay = (typeof DAYS)[number];

export interface QuietHours {
  /** The tenant's when absent. */
  timeZone?: string | undefined;
  from: string;
  to: string;
}
/** Quiet hours of a tenant that sets none: 21:00 to 08:00 in its time zone. */
export const DEFAULT_QUIET_HOURS: QuietHours = { from: '21:00', to: '08:00' };

/**
 * What a journey, its case rule and the privacy settings hold where they leave a field out: the schemas' defaults
 * (config-schema.ts) and what the settings reader gives an item written before the field existed.
 */
export const JOURNEY_DEFAULTS = { resurveyWindowDays: null, surveyValidityDays: 7, handOff: [] as never[] } as const;
export const CASE_RULE_DEFAULTS = { deadlineHours: 24, whatsapp: false } as const;
export const PRIVACY_DEFAULTS = { retentionDays: null } as const;
export const ANALYTICS_DEFAULTS = { comments: false } as const;
