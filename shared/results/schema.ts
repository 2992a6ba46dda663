import * as v from 'valibot';
import { calendarDate, integerString, MAX_INT_ID, text, wholeNumber } from '../schema.js';
import { GROUPING_NAMES } from './groupings.js';
import { RESULT_SOURCES, type ResultSource } from './sources.js';
import { INDICATORS, type Indicator } from '../settings/scales.js';

/** The intervals a theme's line is counted by (`group_by=theme&interval=`). */
export const THEME_INTERVALS = ['week', 'month'] as const;

export const ResultsQuery = v.strictObject({
  journey: text(64),
  from: calendarDate,
  to: calendarDate,
  group_by: v.picklist(GROUPING_NAMES, `must be one of ${GROUPING_NAMES.join(', ')}`),
  store: v.optional(integerString(1, MAX_INT_ID)),
  employee: v.optional(integerString(1, MAX_INT_ID)),
  /** Only the stores of this region and of its child regions (docs/regions.md). */
  region: v.optional(integerString(1, MAX_INT_ID)),
  /** Only the answers from this source (`sources.ts`): a store's QR code, its kiosk, or every other (`transaction`). */
  source: v.optional(v.picklist(RESULT_SOURCES, `must be one of ${RESULT_SOURCES.join(', ')}`)),
  /** With `group_by=theme`: each theme's mentions per week (7 days counted back from `to`) or calendar month too. */
  interval: v.optional(v.picklist(THEME_INTERVALS, `must be one of ${THEME_INTERVALS.join(', ')}`)),
});
/** A results query once its schema has read it: the type follows the schema. */
export type ResultsQuery = v.InferOutput<typeof ResultsQuery>;

/**
 * What GET /public/results groups by: a report's grouping, `theme` (the themes' report: shared/themes/report.ts), or
 * `driver` (the items that move the score: shared/results/drivers-report.ts).
 */
export const RESULT_GROUPINGS = [...GROUPING_NAMES, 'theme', 'driver'] as const;
export const ResultsRouteQuery = v.strictObject({
  ...ResultsQuery.entries,
  group_by: v.picklist(RESULT_GROUPINGS, `must be one of ${RESULT_GROUPINGS.join(', ')}`),
});

const Nps = v.object({
  score: v.number(),
  promoters: wholeNumber,
  passives: wholeNumber,
  detractors: wholeNumber,
  /** The 95% interval of the score, [low, high]: Wilson's, for small samples too (see `nps` in `report.ts`). */
  ci95: v.pipe(v.array(v.number()), v.length(2, 'is a [low, high] pair')),
});

const Interval = v.object({ low: v.number(), high: v.number() });

export const ResultRowBody = v.object({
  key: v.string(),
  label: v.string(),
  responses: wholeNumber,
  /** The responses by where they came from (`source` narrows them to one): a flood of QR or kiosk answers shows here. */
  sources: v.object(Object.fromEntries(RESULT_SOURCES.map((source) => [source, wholeNumber])) as Record<ResultSource, typeof wholeNumber>),
  sent: wholeNumber,
  /** The journey's responses over its surveys sent (on a class row too). */
  response_rate: v.nullable(v.number()),
  /** Surveys sent that asked this row's question: `sent`, or for a class row those that asked the item. */
  asked: wholeNumber,
  /** Responses that answered this row's question (a class row: rated the item) over `asked`. */
  asked_response_rate: v.nullable(v.number()),
  mean: v.nullable(v.number()),
  scale: v.object({ min: v.number(), max: v.number() }),
  nps: v.nullable(Nps),
  low_sample: v.boolean(),
  /** The 95% interval of the headline figure (the NPS, else the mean: Wilson's over the mean as a share of the scale). */
  interval: v.nullable(Interval),
  /** Store and employee rows: 1 for the highest lower end of the interval; null when unranked (too few answers) or another grouping. */
  rank: v.nullable(wholeNumber),
  /** Store and employee rows: 1 for the lowest upper end of the interval; null when unranked. */
  worst_rank: v.nullable(wholeNumber),
  /** Store and employee rows: the figure minus the period before's (`compared_with`), its 95% interval, and whether that excludes 0. */
  change: v.nullable(v.object({ value: v.number(), low: v.number(), high: v.number(), significant: v.boolean() })),
  /** Cases opened on the group's answers in the period, and what became of them (counted on the day each opened). */
  cases: v.object({
    opened: wholeNumber,
    /** Median minutes from opening to first contact, interpolated within a histogram bucket (bounds 15, 30, 60, 120, 240, 480, 1440, 2880, 4320, 10080 min): an estimate. */
    first_contact_median_minutes: v.nullable(v.number()),
    /** The median wait as the histogram knows it: over `low`, at most `high` minutes (`high` null: over a week). */
    first_contact_median_range: v.nullable(v.object({ low: v.number(), high: v.nullable(v.number()) })),
    resolved: wholeNumber,
    /** Share of the cases opened that were resolved within their deadline (cases still open included). */
    resolved_within_deadline: v.nullable(v.number()),
    /** Cases whose deadline is decided: resolved within it, or missed (overdue, resolved late, closed unresolved). */
    deadline_decided: wholeNumber,
    /** Of those, resolved within their deadline. */
    resolved_in_time: wholeNumber,
    /** `resolved_in_time` over `deadline_decided`. */
    on_time_rate: v.nullable(v.number()),
    recovery_answers: wholeNumber,
    /** Share of the recovery surveys answered "yes, solved". */
    recovery_rate: v.nullable(v.number()),
  }),
});

export const ReportBody = v.object({
  journey: v.object({ id: wholeNumber, slug: v.string(), indicator: v.picklist(Object.keys(INDICATORS) as Indicator[]) }),
  from: v.string(),
  to: v.string(),
  group_by: v.picklist(GROUPING_NAMES),
  min_sample: wholeNumber,
  /** Store and employee reports: rows with fewer answers are listed after the ranked ones, unranked. */
  min_answers_to_rank: wholeNumber,
  /** The period of the same length just before, that `change` compares with; null for other groupings or before the calendar's first year. */
  compared_with: v.nullable(v.object({ from: v.string(), to: v.string() })),
  data: v.array(ResultRowBody),
});
