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

/** Where a score falls (a main score's bucket): detractor, passive, promoter on the NPS scale; low, mid, high on any other. */
export const NPS_BUCKETS = ['detractor', 'passive', 'promoter'] as const;
export const SCALE_BUCKETS = ['low', 'mid', 'high'] as const;
export const BUCKETS = [...NPS_BUCKETS, ...SCALE_BUCKETS] as const;
export type Bucket = (typeof BUCKETS)[number];

/**
 * The scores of a bucket on an indicator's scale, or null when the bucket is not one of that scale's. NPS: 0-6
 * detractors, 7-8 passives, 9-10 promoters. Other scales: below, at and above the scale's middle (csat 1-2, 3, 4-5;
 * ces 1-3, 4, 5-7; binary 0 and 1, no middle).
 */
export function scoresOf(indicator: Indicator, bucket: Bucket): { min: number; max: number } | null {
  const { min, max } = INDICATORS[indicator];
  if (indicator === 'nps')
    return { detractor: { min: 0, max: 6 }, passive: { min: 7, max: 8 }, promoter: { min: 9, max: 10 } }[bucket as 'detractor'] ?? null;
  const middle = (min + max) / 2;
  const ranges = {
    low: { min, max: Math.ceil(middle) - 1 },
    mid: Number.isInteger(middle) ? { min: middle, max: middle } : null,
    high: { min: Math.floor(middle) + 1, max },
  };
  return ranges[bucket as 'low'] ?? null;
}

/** The bucket a score falls in on its indicator's scale (null off the scale: a journey whose scale changed since). */
export function bucketOf(indicator: Indicator, score: number): Bucket | null {
  const buckets = indicator === 'nps' ? NPS_BUCKETS : SCALE_BUCKETS;
  return (
    buckets.find((bucket) => {
      const range = scoresOf(indicator, bucket);
      return range !== null && score >= range.min && score <= range.max;
    }) ?? null
  );
}

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
 * What a journey and its case rule hold where they leave a field out: the schemas' defaults (journeys.ts) and what the
 * settings reader gives an item written before the field existed. The slices of the concepts keep theirs in their own
 * config.ts (PRIVACY_DEFAULTS, ANALYTICS_DEFAULTS, DIGESTS_DEFAULTS).
 */
export const JOURNEY_DEFAULTS = { resurveyWindowDays: null, surveyValidityDays: 7, handOff: [] as never[] } as const;
export const CASE_RULE_DEFAULTS = { deadlineHours: 24, whatsapp: false } as const;
